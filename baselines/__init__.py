"""Baseline policies: scripted negotiators and (later) LLM back ends."""
