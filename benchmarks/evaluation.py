"""Hand evaluation and equity: ours against treys, phevaluator, eval7, PokerKit and OMPEval
(C++, through pokerfast)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from itertools import combinations

import eval7
import numpy as np
import pokerkit
import treys
from phevaluator import _pheval
from phevaluator import evaluate_cards as ph_evaluate_cards
from pokerfast import equity as ompeval

from benchmarks.report import Report, Row, median_seconds
from pokerroom.cards import parse_cards
from pokerroom.evaluation import (
    equity,
    evaluate7,
    evaluate7_batch,
    evaluate_codes,
    omaha_high_batch,
    omaha_low_batch,
)
from pokerroom.evaluation import tables as table_module
from pokerroom.evaluation.range_equity import range_equity

TEXT = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _deals(count: int, width: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :width]


def _per_second(count: int, run: object) -> float:
    return count / median_seconds(run)  # type: ignore[arg-type]


def single_hand(report: Report) -> None:
    hands = _deals(100_000, 7, seed=1).tolist()

    def ours() -> None:
        for h in hands:
            evaluate7(*h)

    def ours_list() -> None:
        for h in hands:
            evaluate_codes(h)

    def ph_raw() -> None:
        f = _pheval.evaluate_7cards
        for h in hands:
            f(*h)

    def ph_api() -> None:
        for h in hands[:30_000]:
            ph_evaluate_cards(*h)

    e7_hands = [[eval7.Card(TEXT[c]) for c in h] for h in hands]

    def e7() -> None:
        f = eval7.evaluate
        for h in e7_hands:
            f(h)

    tr = treys.Evaluator()
    tr_hands = [
        ([treys.Card.new(TEXT[c]) for c in h[:2]], [treys.Card.new(TEXT[c]) for c in h[2:]])
        for h in hands[:10_000]
    ]

    def tr_run() -> None:
        for hole, board in tr_hands:
            tr.evaluate(hole, board)

    pk_hands = [
        (
            list(pokerkit.Card.parse("".join(TEXT[c] for c in h[:2]))),
            list(pokerkit.Card.parse("".join(TEXT[c] for c in h[2:]))),
        )
        for h in hands[:300]
    ]

    def pk() -> None:
        for hole, board in pk_hands:
            pokerkit.StandardHighHand.from_game(hole, board)

    report.add(
        Row(
            "7-card, one at a time (evaluate7, mypyc-compiled)",
            _per_second(len(hands), ours),
            "/s",
            {
                "eval7 (Cython)": _per_second(len(hands), e7),
                "phevaluator API": _per_second(30_000, ph_api),
                "treys": _per_second(10_000, tr_run),
                "PokerKit": len(pk_hands) / median_seconds(pk, repeats=3),
                "phevaluator raw C binding": _per_second(len(hands), ph_raw),
            },
            target=">= 1.0M/s",
        )
    )
    report.add(
        Row(
            "7-card, one list at a time (evaluate_codes), as eval7.evaluate takes one",
            _per_second(len(hands), ours_list),
            "/s",
            {"eval7 (Cython)": _per_second(len(hands), e7)},
        )
    )


def batches(report: Report) -> None:
    hands = _deals(1_000_000, 7, seed=2)
    listed = hands[:200_000].tolist()

    def ph_raw() -> None:
        f = _pheval.evaluate_7cards
        for h in listed:
            f(*h)

    report.add(
        Row(
            "7-card numpy batch",
            _per_second(len(hands), lambda: evaluate7_batch(hands)),
            "/s",
            {"phevaluator raw": _per_second(len(listed), ph_raw)},
            target=">= 20M/s",
        )
    )
    nine = _deals(400_000, 9, seed=3)
    holes, boards = np.ascontiguousarray(nine[:, :4]), np.ascontiguousarray(nine[:, 4:])
    omaha_listed = [
        (*b, *h) for h, b in zip(holes[:100_000].tolist(), boards[:100_000].tolist(), strict=True)
    ]

    def ph_omaha() -> None:
        f = _pheval.evaluate_omaha_cards
        for args in omaha_listed:
            f(*args)

    report.add(
        Row(
            "Omaha high batch",
            _per_second(len(holes), lambda: omaha_high_batch(holes, boards)),
            "/s",
            {"phevaluator raw": _per_second(len(omaha_listed), ph_omaha)},
            target=">= 2M/s",
        )
    )
    pk_low = [
        (
            list(pokerkit.Card.parse("".join(TEXT[c] for c in h))),
            list(pokerkit.Card.parse("".join(TEXT[c] for c in b))),
        )
        for h, b in zip(holes[:300].tolist(), boards[:300].tolist(), strict=True)
    ]

    def pk() -> None:
        for hole, board in pk_low:
            with contextlib.suppress(ValueError):  # raised when there is no low
                pokerkit.OmahaEightOrBetterLowHand.from_game(hole, board)

    report.add(
        Row(
            "Omaha eight-or-better low batch",
            _per_second(len(holes), lambda: omaha_low_batch(holes, boards)),
            "/s",
            {"PokerKit": len(pk_low) / median_seconds(pk, repeats=3)},
            target=">= 2M/s",
        )
    )


def equities(report: Report) -> None:
    hands = [parse_cards("AhKh"), parse_cards("QsQd")]
    ours = median_seconds(lambda: equity(hands), repeats=5)
    known = {c.code for h in hands for c in h}
    rest = [c for c in range(52) if c not in known]

    def ph() -> None:
        f = _pheval.evaluate_7cards
        for b in combinations(rest, 5):
            f(50, 46, *b)  # AhKh
            f(43, 41, *b)  # QsQd

    e7_a = [eval7.Card("Ah"), eval7.Card("Kh")]
    e7_b = [eval7.Card("Qs"), eval7.Card("Qd")]
    e7_rest = [eval7.Card(TEXT[c]) for c in rest]

    def e7() -> None:
        f = eval7.evaluate
        for b in combinations(e7_rest, 5):
            f(e7_a + list(b))
            f(e7_b + list(b))

    report.add(
        Row(
            "heads-up preflop equity, all 1,712,304 boards",
            ours,
            "s",
            {
                "OMPEval (pokerfast, C++, one thread)": median_seconds(
                    lambda: ompeval.equity(["AhKh", "QsQd"]), repeats=5
                ),
                "phevaluator raw (loop)": median_seconds(ph, repeats=1),
                "eval7 (loop)": median_seconds(e7, repeats=1),
            },
            higher_is_better=False,
            target="within 3x of OMPEval",
        )
    )
    three = [parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("7c6c")]
    report.add(
        Row(
            "3-way preflop equity, AhKh QsQd 7c6c, every board",
            median_seconds(lambda: equity(three), repeats=5),
            "s",
            {
                "OMPEval (pokerfast, C++, one thread)": median_seconds(
                    lambda: ompeval.equity(["AhKh", "QsQd", "7c6c"]), repeats=5
                )
            },
            higher_is_better=False,
        )
    )
    report.add(
        Row(
            "exact range equity, QQ+,AKs vs AhKh preflop",
            median_seconds(lambda: range_equity(["QQ+,AKs", "AhKh"]), repeats=3),
            "s",
            {
                "OMPEval (pokerfast, C++, one thread)": median_seconds(
                    lambda: ompeval.equity(["QQ+,AKs", "AhKh"]), repeats=3
                )
            },
            higher_is_better=False,
        )
    )
    flop = parse_cards("Kh7d2c")
    report.add(
        Row(
            "exact range equity, T9s+,22+ vs AK on Kh7d2c",
            median_seconds(lambda: range_equity(["T9s+,22+", "AK"], board=flop), repeats=3),
            "s",
            {
                "OMPEval (pokerfast, C++, one thread)": median_seconds(
                    lambda: ompeval.equity(["T9s+,22+", "AK"], board="Kh7d2c"), repeats=3
                )
            },
            higher_is_better=False,
        )
    )
    # Monte Carlo to the same standard error: ours draws 200,000 deals and states its
    # error; OMPEval stops once its error (of the first player) is as small.
    generator = np.random.default_rng(5)
    sampled = range_equity(["QQ+,AKs", "random"], samples=200_000, rng=generator)
    error = sampled.players[0].stderr
    theirs = ompeval.equity(["QQ+,AKs", "random"], exact=False, stdev=error)
    report.add(
        Row(
            f"Monte Carlo range equity, QQ+,AKs vs random, to ±{error:.4f}",
            median_seconds(
                lambda: range_equity(["QQ+,AKs", "random"], samples=200_000, rng=generator),
                repeats=3,
            ),
            "s",
            {
                "OMPEval (pokerfast, C++, one thread)": median_seconds(
                    lambda: ompeval.equity(["QQ+,AKs", "random"], exact=False, stdev=error),
                    repeats=3,
                )
            },
            higher_is_better=False,
        )
    )
    report.notes.append(
        f"QQ+,AKs vs random: ours {sampled.players[0].equity:.4f} ± {error:.4f},"
        f" OMPEval {theirs[0]:.4f}"
    )
    rng = np.random.default_rng(9)
    mc = median_seconds(lambda: equity(hands, samples=100_000, rng=rng), repeats=7)
    e7_range = eval7.HandRange("QsQd")
    e7_mc = median_seconds(
        lambda: eval7.py_hand_vs_range_monte_carlo(e7_a, e7_range, [], 100_000), repeats=7
    )
    report.add(
        Row(
            "Monte Carlo equity, 100,000 boards",
            mc,
            "s",
            {"eval7 (Cython, built in)": e7_mc},
            higher_is_better=False,
            target="<= 0.03 s",
        )
    )


def tables_and_import(report: Report) -> None:
    start = time.perf_counter()
    built = table_module.build_tables()
    build = time.perf_counter() - start
    imports = []
    for module in ("pokerroom", "pokerroom.evaluation"):
        out = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
        )
        last = out.stderr.strip().splitlines()[-1]
        imports.append(f"import {module}: {int(last.split('|')[1]) / 1e6:.3f} s")
    report.notes.append(
        f"tables: {built.nbytes / 1e6:.1f} MB in arrays + {len(built.nonflush):,}-entry dict;"
        f" built from scratch in {build:.1f} s, then cached on disk; " + "; ".join(imports)
    )


def run() -> Report:
    report = Report("Hand evaluation and equity")
    single_hand(report)
    batches(report)
    equities(report)
    tables_and_import(report)
    return report
