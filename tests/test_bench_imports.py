"""The benchmarks are not tests (`make bench` runs them); this only checks that they import."""

from __future__ import annotations

import importlib

import pytest

from bench.__main__ import BENCHMARKS


@pytest.mark.parametrize("name", BENCHMARKS)
def test_benchmark_modules_import(name):
    assert callable(importlib.import_module(f"bench.{name}").main)
