"""benchmarks/api_client_cost.py: its server answers every request of a keep-alive
stream, however the bytes arrive; its conversations have the length asked for; the
table marks the target met or not; the smallest run writes its rows."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("openai")

from benchmarks import api_client_cost as bench  # noqa: E402


class _Transport:
    def __init__(self) -> None:
        self.out = b""

    def write(self, data: bytes) -> None:
        self.out += data


def _request(body: bytes, path: str = "/v1/chat/completions", method: str = "POST") -> bytes:
    return (f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


@pytest.mark.parametrize("cuts", [[], [5], [3, 40, 41, 90], list(range(1, 200, 7))])
def test_the_server_answers_each_request_however_it_arrives(cuts):
    stream = _request(b'{"a":1}') + _request(b"a body holding\r\n\r\nthe end of a head") \
        + _request(b"", "/cpu", "GET")
    p, t = bench._Protocol(), _Transport()
    p.connection_made(t)
    edges = [0, *[c for c in cuts if c < len(stream)], len(stream)]
    for a, b in zip(edges, edges[1:]):
        p.data_received(stream[a:b])
    answers = t.out.split(b"HTTP/1.1 200 OK\r\n")[1:]
    assert len(answers) == 3 and p.buf == b""
    assert all(a.endswith(bench.ANSWER) for a in answers[:2])
    cpu = json.loads(answers[2].split(b"\r\n\r\n", 1)[1])
    assert isinstance(cpu["cpu"], float) and cpu["cpu"] >= 0


@pytest.mark.parametrize("n", [1, 2, 10, 41])
def test_conversations_have_the_length_asked_for(n):
    conv = bench.conversation(n)
    assert len(conv) == n and conv[0]["role"] == "system"
    assert [m["role"] for m in conv[1:]] == ["user" if i % 2 else "assistant" for i in range(1, n)]


def _row(row: str, n: int, cpu: float) -> dict:
    return {"row": row, "messages": n, "cpu_ms": cpu, "wall_ms": cpu, "server_cpu_ms": 0.01}


@pytest.mark.parametrize("ours,met", [(0.999, "yes"), (1.0, "yes"), (1.001, "**no**")])
def test_the_table_marks_the_target(ours, met):
    result = {"sizes": [1, 40], "rows": [_row("openai create", 1, 2.0), _row("APIClient", 1, 0.5),
                                          _row("httpx post", 1, 0.3), _row("openai create", 40, 8.0),
                                          _row("APIClient", 40, ours), _row("httpx post", 40, 0.3)]}
    lines = bench.render(result).splitlines()
    assert lines[2].startswith("| 1 | 2.000 | 0.500 | 0.300 | 4.0x |  |  |")
    assert lines[3].startswith(f"| 40 | 8.000 | {ours:.3f} | 0.300 | {8.0 / ours:.1f}x | ≤ 1 | {met} |")


def test_the_smallest_run_writes_its_rows(tmp_path, capsys):
    out = tmp_path / "cost.json"
    assert bench.main(["--sizes", "1,3", "--reps", "1", "--calls", "2", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert [(r["messages"], r["row"]) for r in result["rows"]] == [
        (n, row) for n in (1, 3) for row in ("openai create", "APIClient", "httpx post")]
    assert all(r["cpu_ms"] > 0 and r["wall_ms"] > 0 and r["server_cpu_ms"] >= 0 for r in result["rows"])
    assert result["machine"]["packages"]["openai"]
    assert "| 3 |" in capsys.readouterr().out
