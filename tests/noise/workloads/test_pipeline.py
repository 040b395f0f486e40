"""A pytest suite (run with `-m pytest -q test_pipeline.py`): fixtures, parametrize, plain asserts."""
import statistics

import pytest


def normalize(values):
    lo, hi = min(values), max(values)
    return [(v - lo) / (hi - lo) if hi != lo else 0.0 for v in values]


def window(values, n):
    return [sum(values[i:i + n]) / n for i in range(len(values) - n + 1)]


@pytest.fixture
def series():
    return [((i * 37) % 101) / 3.0 for i in range(4000)]


@pytest.mark.parametrize("n", [2, 5, 10, 50])
def test_window_length(series, n):
    assert len(window(series, n)) == len(series) - n + 1


def test_normalize_bounds(series):
    for _ in range(20):
        out = normalize(series)
        assert min(out) == 0.0 and max(out) == 1.0


def test_mean_is_stable(series):
    assert abs(statistics.fmean(window(series, 10)) - statistics.fmean(series)) < 1.0
