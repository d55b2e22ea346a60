"""Rules verification: one package a game (verify/<game>/, each exporting VerifyConfig,
SECTIONS and run), over the shared check results (result), solver budgets (budget), report
writers (report) and the traceability of docs/rules.md's clauses (trace).

Imports: fleece.rules and fleece.verify: a check's expectation comes from the rules and its
own means, never from a solver.
"""

if __name__ != "fleece.verify":
    raise ImportError(f"import fleece.verify, not {__name__}: this folder is the package "
                      "fleece.verify (a bare name would load a second copy of its classes)")
