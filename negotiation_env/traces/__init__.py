"""Traces: the schema of a recorded game, an append-only JSONL writer and a tolerant
reader, a recorder that wraps any env, and exports to datasets (:mod:`.export`).

See :mod:`.schema` for every field."""

from .reader import LineProblem, ReadResult, iter_records, iter_traces, read_traces, trace_files
from .recorder import ParallelTraceRecorder, TraceRecorder, describe_policy, record
from .schema import (
    SCHEMA_VERSION,
    GameTrace,
    PolicyInfo,
    RoundRecord,
    RunInfo,
    SchemaError,
    StepRecord,
    redact,
)
from .writer import TraceFileLocked, TraceWriter, repair_torn_tail

__all__ = [
    "SCHEMA_VERSION", "GameTrace", "StepRecord", "RoundRecord", "PolicyInfo", "RunInfo", "SchemaError", "redact",
    "TraceWriter", "TraceFileLocked", "repair_torn_tail",
    "LineProblem", "ReadResult", "iter_records", "iter_traces", "read_traces", "trace_files",
    "TraceRecorder", "ParallelTraceRecorder", "record", "describe_policy",
]
