"""Prometheus metrics in the text exposition format, with no dependency.

Counters and histograms live in one `Metrics` object per app (no globals): sessions, calls by
tool and outcome, limits fired, call latency, HTTP requests by route and status.
"""

from __future__ import annotations

import bisect
import threading
from collections import defaultdict

import cove

__all__ = ["Metrics"]

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)


def _escape_label(value: str) -> str:
    """A label value as the exposition format quotes it: backslash, double quote and newline
    escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(pairs: tuple[tuple[str, str], ...]) -> str:
    if not pairs:
        return ""
    return "{" + ",".join(f'{k}="{_escape_label(v)}"' for k, v in pairs) + "}"


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: defaultdict[tuple[tuple[str, str], ...], int] = defaultdict(int)
        self.limits: defaultdict[tuple[tuple[str, str], ...], int] = defaultdict(int)
        self.http: defaultdict[tuple[tuple[str, str], ...], int] = defaultdict(int)
        self.latency_counts = [0] * (len(_BUCKETS) + 1)
        self.latency_sum = 0.0

    def record_call(self, result: cove.ExecResult, seconds: float) -> None:
        with self._lock:
            self.calls[(("tool", result.tool), ("outcome", result.outcome))] += 1
            if result.limit is not None:
                self.limits[(("limit", result.outcome),)] += 1
            self.latency_counts[bisect.bisect_left(_BUCKETS, seconds)] += 1
            self.latency_sum += seconds

    def record_http(self, method: str, route: str, status: int) -> None:
        with self._lock:
            self.http[(("method", method), ("route", route), ("status", str(status)))] += 1

    def render(self, stats: cove.PoolStatistics) -> str:
        lines = [
            "# HELP cove_sessions Live sessions.",
            "# TYPE cove_sessions gauge",
            f"cove_sessions {stats.sessions}",
            "# HELP cove_sessions_max Session capacity.",
            "# TYPE cove_sessions_max gauge",
            f"cove_sessions_max {stats.max_sessions}",
            "# HELP cove_sessions_created_total Sessions created.",
            "# TYPE cove_sessions_created_total counter",
            f"cove_sessions_created_total {stats.sessions_created}",
            "# HELP cove_sessions_reaped_total Sessions reclaimed by the idle/lifetime reaper.",
            "# TYPE cove_sessions_reaped_total counter",
            f"cove_sessions_reaped_total {stats.sessions_reaped}",
            "# HELP cove_sessions_suspended Sessions whose state is on disk (suspended).",
            "# TYPE cove_sessions_suspended gauge",
            f"cove_sessions_suspended {stats.sessions_suspended}",
            "# HELP cove_sessions_restored_total Held sessions taken back at start.",
            "# TYPE cove_sessions_restored_total counter",
            f"cove_sessions_restored_total {stats.sessions_restored}",
            "# HELP cove_interpreter_resets_total Interpreters replaced after a trap.",
            "# TYPE cove_interpreter_resets_total counter",
            f"cove_interpreter_resets_total {stats.resets}",
        ]
        with self._lock:
            lines += [
                "# HELP cove_calls_total Tool calls by tool and outcome.",
                "# TYPE cove_calls_total counter",
            ]
            lines += [f"cove_calls_total{_labels(k)} {v}" for k, v in sorted(self.calls.items())]
            lines += [
                "# HELP cove_limits_fired_total Calls stopped or refused by a limit.",
                "# TYPE cove_limits_fired_total counter",
            ]
            lines += [
                f"cove_limits_fired_total{_labels(k)} {v}" for k, v in sorted(self.limits.items())
            ]
            lines += [
                "# HELP cove_call_seconds Tool call latency.",
                "# TYPE cove_call_seconds histogram",
            ]
            running = 0
            for bound, count in zip((*_BUCKETS, float("inf")), self.latency_counts, strict=True):
                running += count
                le = "+Inf" if bound == float("inf") else repr(bound)
                lines.append(f'cove_call_seconds_bucket{{le="{le}"}} {running}')
            lines.append(f"cove_call_seconds_sum {self.latency_sum}")
            lines.append(f"cove_call_seconds_count {running}")
            lines += [
                "# HELP cove_http_requests_total HTTP requests by route and status.",
                "# TYPE cove_http_requests_total counter",
            ]
            lines += [
                f"cove_http_requests_total{_labels(k)} {v}" for k, v in sorted(self.http.items())
            ]
        return "\n".join(lines) + "\n"
