"""Scenarios shared by the resource-game tests."""

# The Appendix D.1.2 example projects for agent_a on the Appendix C environment.
APPENDIX = {
    "name": "appendix",
    "resources": {
        "r1": {"supply": 10, "cost": 1.0},
        "r2": {"supply": 10, "cost": 1.5},
        "r3": {"supply": 6, "cost": 3.0},
    },
    "budget": 18,
    "max_types": 2,
    "projects": {
        "agent_a": {
            "project_a": {"requires": {"r2": 2}, "reward": 6},
            "project_b": {"requires": {"r1": 5, "r3": 3}, "reward": 15},
            "project_c": {"requires": {"r2": 4}, "reward": 10},
        },
        "agent_b": {
            "project_a": {"requires": {"r3": 1}, "reward": 6},
            "project_b": {"requires": {"r1": 2, "r3": 2}, "reward": 12},
            "project_c": {"requires": {"r3": 3}, "reward": 8},
        },
    },
}
