"""What several test files share: the in-process CLI runner (clirun), example scaling under the
Hypothesis profiles (scaling), strategies and oracles (mutton_strategies, woof_strategies,
woof_oracle), planted rule bugs (mutton_bugs) and a served web app (serve).

Test files import these as `helpers.<module>` (pyproject's pytest `pythonpath` puts tests/ on
sys.path); a test file never imports another test file. Helpers import fleece.* only."""
