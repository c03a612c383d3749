"""A learner seat's next prompt built from tokens, as TRL's multi-turn loop builds it.

When a seat's new context is its previous context, its answer exactly as it sent it,
then new env messages, the model's next prompt is its previous prompt's tokens, the
tokens it sampled, and the tokens of what the chat template renders after them (the
end-of-turn tokens when the completion did not end with them, then the new messages and
the generation prompt). Re-tokenising the whole rendering instead may split the
answer's text into other tokens than the sampled ones, and the token stream of the
episode would no longer hold what the model generated.
"""

from __future__ import annotations

from typing import Callable, Sequence

__all__ = ["continue_prompt"]


def continue_prompt(prompt_ids: Sequence[int], completion_ids: Sequence[int], rendering: str,
                    encode: Callable[[str], list[int]], decode: Callable[[Sequence[int]], str]) -> list[int] | None:
    """``prompt_ids + completion_ids + encode(rest)``, where ``rendering`` (the chat-template
    rendering of the seat's new context, generation prompt included) is the text of
    ``prompt_ids + completion_ids`` followed by ``rest``; the result decodes to
    ``rendering``. None when ``rendering`` does not start with that text (the template
    renders the earlier turns otherwise than the model read them, e.g. it drops a
    reasoning span or an empty thinking block, or the answer was stored otherwise than
    sampled): the prompt is then the rendering's own tokens."""
    seen = list(prompt_ids) + list(completion_ids)
    text = decode(seen)
    if not rendering.startswith(text):
        return None
    rest = rendering[len(text):]
    return seen + (encode(rest) if rest else [])
