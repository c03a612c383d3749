import json
import os

import pytest

from negotiation_env.traces import TraceFileLocked, TraceWriter, read_traces, repair_torn_tail
from negotiation_env.traces.writer import encode_trace

from .helpers import play_aec


@pytest.fixture(scope="module")
def traces():
    return [play_aec(seed=s, rounds=1)[0] for s in range(3)]


def test_append_and_read_back(tmp_path, traces):
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as w:
        for t in traces[:2]:
            w.write(t)
    with TraceWriter(path) as w:  # appending, not overwriting
        w.write(traces[2])
    res = read_traces(path)
    assert res.problems == []
    assert [t.to_dict() for t in res.traces] == [t.to_dict() for t in traces]
    assert path.read_bytes().count(b"\n") == 3
    assert read_traces(tmp_path).traces[0].game_id == traces[0].game_id  # a folder reads its *.jsonl


def test_torn_last_line_is_reported_not_raised(tmp_path, traces):
    path = tmp_path / "t.jsonl"
    full = encode_trace(traces[0]) + encode_trace(traces[1])
    path.write_bytes(full + encode_trace(traces[2])[:100])  # killed mid-write
    res = read_traces(path)
    assert [t.game_id for t in res.traces] == [traces[0].game_id, traces[1].game_id]
    assert len(res.problems) == 1
    p = res.problems[0]
    assert p.kind == "torn" and p.line == 3 and p.offset == len(full)


def test_undecodable_and_invalid_lines_are_skipped(tmp_path, traces):
    path = tmp_path / "t.jsonl"
    bad_schema = json.dumps({"schema_version": 1, "game_id": "x"}).encode() + b"\n"
    path.write_bytes(encode_trace(traces[0]) + b"{not json\n" + b"\xff\xfe\n" + b"[1, 2]\n" + bad_schema
                     + encode_trace(traces[1]))
    res = read_traces(path)
    assert [t.game_id for t in res.traces] == [traces[0].game_id, traces[1].game_id]
    assert [(p.line, p.kind) for p in res.problems] == [(2, "undecodable"), (3, "undecodable"), (4, "undecodable"),
                                                        (5, "schema")]
    assert "missing field 'game'" in res.problems[-1].message


def test_writer_repairs_a_torn_tail_before_appending(tmp_path, traces):
    path = tmp_path / "t.jsonl"
    torn = encode_trace(traces[1])[:77]
    path.write_bytes(encode_trace(traces[0]) + torn)
    with TraceWriter(path) as w:
        assert w.repaired_bytes == 77
        w.write(traces[2])
    res = read_traces(path)
    assert res.problems == []
    assert [t.game_id for t in res.traces] == [traces[0].game_id, traces[2].game_id]
    assert (tmp_path / "t.jsonl.torn").read_bytes() == torn + b"\n"
    assert repair_torn_tail(path) == 0  # idempotent


def test_a_second_writer_is_refused(tmp_path):
    path = tmp_path / "t.jsonl"
    with TraceWriter(path):
        with pytest.raises(TraceFileLocked):
            TraceWriter(path)
    TraceWriter(path).close()  # free again once closed


def test_write_is_one_line_and_fsynced(tmp_path, traces, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    with TraceWriter(tmp_path / "t.jsonl") as w:
        before = len(synced)
        w.write(traces[0])
        assert len(synced) == before + 1
        with pytest.raises(ValueError, match="one line"):
            w.write_line(b'{"a": 1}\n{"b": 2}\n')


def test_write_lines_appends_every_record_with_one_fsync(tmp_path, traces, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as w:
        before = len(synced)
        w.write_lines([encode_trace(t) for t in traces])
        assert len(synced) == before + 1 and w.written == len(traces)
        w.write_lines([])  # nothing to write: no sync
        assert len(synced) == before + 1
        with pytest.raises(ValueError, match="one line"):  # checked before anything is written
            w.write_lines([encode_trace(traces[0]), b'{"a": 1}\n{"b": 2}\n'])
    assert [t.game_id for t in read_traces(path).traces] == [t.game_id for t in traces]


def test_encode_jsonable_of_to_dict_is_encode_trace(traces):
    from negotiation_env.traces.schema import to_jsonable
    from negotiation_env.traces.writer import encode_jsonable

    for t in traces:
        d = t.to_dict()
        assert to_jsonable(d) == d  # to_dict is plain JSON already: a fixed point
        assert encode_jsonable(d) == encode_trace(t) == encode_trace(d)
