"""fleece.verify: rules verification, one package per game (verify/<game>/, each exporting
VerifyConfig, SECTIONS and run) over the shared result, report and traceability modules."""
