"""The parts every game shares: the game protocol, the generic AEC and parallel adapters,
spaces, config checks, the one bounded JSON decoder, the ``<think>`` splitter, named-slice
vectors, the data-file reader, the policy protocol and config documentation."""
