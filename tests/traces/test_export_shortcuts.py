"""No export lets a model tell who wrote an answer from its first words.

A model trained on scripted answers learns whatever separates them most cheaply. When
every rejected answer of the preference export opened with the same sentence of one
policy and every chosen answer with the same sentence of another, the opening alone
told chosen from rejected: a model learns the phrase, not the negotiation. This test
plays a small default-like cohort (the shipped default config with a few games per
cell), exports every kind and trains simple classifiers on the first :data:`WINDOW`
characters of each answer:

* ``preferences``: chosen against rejected answers;
* ``transitions`` (``action_text``), ``sft`` (the last assistant message) and
  ``sft_prompt_completion`` (the completion): one policy's answers against another's,
  for every pair of policies with at least :data:`MIN_ROWS` answers each.

Each comparison uses balanced classes (the larger one subsampled, seeded), character
n-grams of the opening, and reports the best k-fold cross-validated accuracy of a naive
Bayes and a logistic-regression classifier; it must stay below :data:`BOUND` (chance is
0.5). Every answer of the cohort counts, plain-text ones included: with thinking on
(the default) the only plain-text answers are the post-game reflections, whose
openings must not tell the policies apart either. Talk turns with thinking off are plain
speech in the fixed mini-grammar, whose sentences do identify what a policy does (a
disclosure, a proposal, the no-talk reference's stock sentence); the default cohort has
thinking on, and this test checks what it exports.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import numpy as np
import pytest
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline

from negotiation_env.runner import DEFAULT_CONFIG, run
from negotiation_env.traces import export

#: characters of an answer's opening the classifiers see
WINDOW = 50
#: the highest cross-validated accuracy allowed (balanced classes: chance is 0.5)
BOUND = 0.65
#: fewest answers of each policy for a pair of policies to be compared
MIN_ROWS = 60
#: most answers per class used in one comparison (keeps the fits fast)
CAP = 600
FOLDS = 5
GAMES_PER_CELL = 4


def answer_text(kind: str, row: dict) -> str:
    """The answer a row holds: what the policy wrote."""
    if kind == "transitions":
        return row["action_text"] or ""
    if kind == "sft":
        return row["messages"][-1]["content"]
    if kind == "sft_prompt_completion":
        return row["completion"][-1]["content"]
    raise ValueError(kind)


def opening_accuracy(a: list[str], b: list[str], seed: int = 0) -> float:
    """The best k-fold accuracy of two character n-gram classifiers (naive Bayes,
    logistic regression) telling the openings of ``a`` from those of ``b``, on balanced
    classes."""
    rng = np.random.default_rng(seed)
    n = min(len(a), len(b), CAP)
    xa = [a[i][:WINDOW] for i in rng.choice(len(a), n, replace=False)]
    xb = [b[i][:WINDOW] for i in rng.choice(len(b), n, replace=False)]
    x, y = xa + xb, np.array([0] * n + [1] * n)
    folds = StratifiedKFold(n_splits=FOLDS, shuffle=True, random_state=seed)
    best = 0.0
    for clf in (MultinomialNB(), LogisticRegression(max_iter=2000)):
        pipe = make_pipeline(CountVectorizer(analyzer="char", ngram_range=(1, 4), lowercase=False), clf)
        best = max(best, float(cross_val_score(pipe, x, y, cv=folds, scoring="accuracy").mean()))
    return best


def test_the_classifier_finds_a_planted_shortcut():
    """The check has teeth: two sets that differ only in how they open are told apart."""
    rng = np.random.default_rng(1)
    body = [f" with {int(k)} units left over, round {int(r)}." for k, r in rng.integers(0, 9, (200, 2))]
    a = ["{\"thinking\": \"I hold out for my best plan" + t for t in body[:100]]
    b = ["{\"thinking\": \"I look for the best joint plan" + t for t in body[100:]]
    assert opening_accuracy(a, b) > 0.95
    assert opening_accuracy(a[:50], a[50:]) < BOUND  # the same source is not separated


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    config = tomllib.loads(DEFAULT_CONFIG.read_text())
    for block in config["games"]:
        block["games_per_cell"] = GAMES_PER_CELL
    out = tmp_path_factory.mktemp("shortcuts")
    summary = run(config, out)
    assert summary.complete and summary.errors == 0
    return out


def test_preference_openings_do_not_tell_chosen_from_rejected(run_dir):
    rows = list(export.rows("preferences", run_dir))
    assert len(rows) >= 30, "too few preference pairs to compare"
    chosen = [r["chosen"][-1]["content"] for r in rows]
    rejected = [r["rejected"][-1]["content"] for r in rows]
    acc = opening_accuracy(chosen, rejected)
    assert acc < BOUND, f"preferences: the first {WINDOW} characters tell chosen from rejected ({acc:.2f})"


@pytest.mark.parametrize("kind", ["transitions", "sft", "sft_prompt_completion"])
def test_answer_openings_do_not_tell_policies_apart(run_dir, kind):
    by_policy: dict[str, list[str]] = defaultdict(list)
    for row in export.rows(kind, run_dir):
        by_policy[row["policy"]].append(answer_text(kind, row))
    names = sorted(p for p, texts in by_policy.items() if len(texts) >= MIN_ROWS)
    assert len(names) >= 2, f"{kind}: too few policies with {MIN_ROWS} answers"
    found = {}
    for p, q in itertools.combinations(names, 2):
        found[(p, q)] = opening_accuracy(by_policy[p], by_policy[q])
    bad = {k: round(v, 2) for k, v in found.items() if v >= BOUND}
    assert not bad, f"{kind}: the first {WINDOW} characters tell these policies apart: {bad}"
