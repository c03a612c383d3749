"""The five-party negotiated-rulemaking game (seed 001)."""
