"""Analysis helpers for negotiation experiments.

:mod:`negotiation_env.analysis.stats` holds the run-level statistics of seed 001 §5-§6:
Wilson intervals, the two-sided plausibility screen, one-sided Fisher exact tests,
permutation tests, Holm and Benjamini-Hochberg adjustment, Cliff's delta, bootstrap
confidence intervals and normalized entropy.
"""
