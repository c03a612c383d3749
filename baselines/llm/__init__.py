"""LLM policies: a local ``transformers`` model (:mod:`.hf`, the ``llm`` extra) and any
OpenAI-compatible chat-completions server (:mod:`.api`, the ``api`` extra), one policy
protocol (:mod:`.policy`), shared prompting and records (:mod:`.prompting`), steering
hooks (:mod:`.steering`), policy replay of recorded decisions (:mod:`.replay`), and a
tiny local test model (:mod:`.tiny`). Nothing heavy is imported here."""
