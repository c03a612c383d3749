import json

from negotiation_env.cli import main

from .helpers import small_config


def write_toml(path, cfg):
    b = cfg["games"][0]
    sets = "\n".join(f'{k} = {json.dumps(v)}' for k, v in b["scenario_sets"].items())
    path.write_text(f'''name = "cli"
seed = {cfg["seed"]}
[[games]]
game = "resource"
policies = {json.dumps(b["policies"])}
pairings = "{b["pairings"]}"
games_per_cell = {b["games_per_cell"]}
swap_first_speaker = true
config = {{ num_rounds = 1 }}
[games.scenario_sets]
{sets}
''')


def test_run_plan_and_export_commands(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # rich wraps at the terminal width
    cfg = tmp_path / "c.toml"
    write_toml(cfg, small_config(games_per_cell=2))
    assert main(["run", str(cfg), "--plan"]) == 0
    out = capsys.readouterr().out
    assert "12 games in 6 cells" in out
    assert main(["run", str(cfg), "--out", str(tmp_path / "run")]) == 0
    out = capsys.readouterr().out
    assert "12/12 games (complete)" in out and "by pairing" in out and "scripted:oracle vs scripted:random" in out
    assert main(["export", str(tmp_path / "run"), "--kind", "sft", "--out", str(tmp_path / "sft.jsonl"),
                 "--only-optimal"]) == 0
    assert "sft rows" in capsys.readouterr().out
    rows = [json.loads(x) for x in (tmp_path / "sft.jsonl").read_text().splitlines()]
    assert rows and all(r["optimal"] is True and r["messages"][-1]["role"] == "assistant" for r in rows)
    assert main(["export", str(tmp_path / "run"), "--kind", "transitions", "--out", str(tmp_path / "t.parquet")]) == 0


def test_cli_errors_name_the_problem(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[games]]\ngame = "resource"\npolicies = ["scripted:oracle"]\ngames_per_cell = 0\n')
    assert main(["run", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "games[0].games_per_cell" in capsys.readouterr().err
    assert main(["run", str(bad)]) == 2
    assert "--out DIR is required" in capsys.readouterr().err
    assert main(["export", str(tmp_path / "nowhere"), "--kind", "sft", "--out", str(tmp_path / "x.parquet")]) == 2
    assert f"no run folder or trace file at {tmp_path / 'nowhere'}" in capsys.readouterr().err
    assert main(["export", str(tmp_path), "--kind", "transitions", "--out", str(tmp_path / "x.csv")]) == 2
    assert main(["export", str(tmp_path), "--kind", "transitions", "--only-optimal",
                 "--out", str(tmp_path / "x.parquet")]) == 2
    assert "apply to --kind sft and sft_prompt_completion only" in capsys.readouterr().err
