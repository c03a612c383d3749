"""Batch 3 of the hand-written utterances (ids after batch 2; see make_language_corpus.py).

Written independently of batches 1 and 2 and of any reader, in the same notation and under
the same label rules as ``language_corpus_lines.py`` and ``language_corpus_lines_2.py``:

L(style, theme, text, o=offer, a=accept, r=reject, d=disclosures, q=question,
  h=hypothetical, t=tags, n=note). The theme is named by its first resource.

This batch leans on offers (hedged, corporate, terse, listed, tabled, JSON-ish, claims in many
phrasings, counters after a refusal, restated proposals, offers spread over several sentences)
and on acceptances and their near misses. Its split is drawn on its own (seeded, stratified per
kind), so adding it leaves the splits of batches 1 and 2 as they were.
"""

# ruff: noqa: E501
from __future__ import annotations

LINES: list[tuple[str, str, str, dict]] = []


def L(style: str, theme: str, text: str, **kw) -> None:
    LINES.append((style, theme, text, kw))


# --- two-sided offers: plain, in many framings ------------------------------------------
L("gpt-4o", "wood", "Here's my pitch: 7 stone and 1 gold go to you, while 9 wood and 4 gold come to me.", o="you: stone 7, gold 1 / me: wood 9, gold 4")
L("claude", "copper", "Would a split along these lines suit you — 8 silicon and 1 lithium on your side, 5 copper and 4 lithium on mine?", o="you: silicon 8, lithium 1 / me: copper 5, lithium 4",
  n="a proposal phrased as a question: offer, question false")
L("gemini", "flour", "Let's try 6 sugar plus 2 saffron for you, and 7 flour plus 4 saffron for me!", o="you: sugar 6, saffron 2 / me: flour 7, saffron 4")
L("qwen", "seeds", "I would like to put forward the following arrangement: you shall receive 9 units of seeds, and I shall receive 7 units of water and 3 units of fertilizer.", o="you: seeds 9 / me: water 7, fertilizer 3")
L("mistral", "cotton", "Wool 8 you. Cotton 6 me. Silk 3 me, 3 you.", o="you: wool 8, silk 3 / me: cotton 6, silk 3")
L("deepseek", "sand", "Allocation draft: steel 4 → me, sand 9 → you, glass 2 → you, glass 4 → me.", o="you: sand 9, glass 2 / me: steel 4, glass 4", t="ll")
L("o-series", "herbs", "Split: you herbs×6 + mercury×2; me crystals×9 + mercury×4. Feasible on all three.", o="you: herbs 6, mercury 2 / me: crystals 9, mercury 4")
L("gpt-4.1", "kelp", "My proposal for this round: you buy 10 coral, I buy 6 kelp and 4 pearls.", o="you: coral 10 / me: kelp 6, pearls 4")
L("llama", "coal", "ok hear me out: u take 8 oil n 2 uranium, i take 5 coal n 4 uranium", o="you: oil 8, uranium 2 / me: coal 5, uranium 4")
L("claude", "ice", "Here’s one way to carve it up that I think respects both our priorities: you’d take 9 titanium and 2 helium, and I’d take 6 ice and 4 helium.", o="you: titanium 9, helium 2 / me: ice 6, helium 4", t="ct")
L("gpt-4o", "sand", "How would you feel about 8 steel for you and 5 sand with 3 glass for me?", o="you: steel 8 / me: sand 5, glass 3")
L("gemini", "herbs", "Okay, here's a fresh idea — you get 7 herbs and 3 mercury, and I get 8 crystals and 3 mercury. Even split on the scarce one!", o="you: herbs 7, mercury 3 / me: crystals 8, mercury 3")
L("qwen", "wood", "Taking into account our respective needs, I recommend that you acquire 5 units of gold and I acquire 10 units of stone.", o="you: gold 5 / me: stone 10")
L("mistral", "flour", "Sugar to you, 9. Saffron to me, 5. Flour to me, 3.", o="you: sugar 9 / me: saffron 5, flour 3")
L("deepseek", "copper", "Proposed: copper 10 (you) · silicon 4 (me) · lithium 2 (you), 4 (me).", o="you: copper 10, lithium 2 / me: silicon 4, lithium 4")
L("o-series", "seeds", "Counter-plan: fertilizer 4 me / 2 you; water 10 you; seeds 5 me.", o="you: fertilizer 2, water 10 / me: fertilizer 4, seeds 5", t="ll")
L("gpt-4.1", "cotton", "Let me suggest we divide it this way: 9 cotton and 2 silk for you; 7 wool and 4 silk for me.", o="you: cotton 9, silk 2 / me: wool 7, silk 4")
L("llama", "wood", "what about u get all 10 wood + 2 gold and i get 8 stone + 4 gold", o="you: wood 10, gold 2 / me: stone 8, gold 4")
L("claude", "flour", "I’ve been mulling this over, and I think a fair landing spot is 10 flour for you and 6 sugar and 3 saffron for me. The other 3 saffron are yours as well.", o="you: flour 10, saffron 3 / me: sugar 6, saffron 3", t="ct",
  n="'the other 3 saffron' writes the listener's number, so it is in the share")
L("gemini", "kelp", "What do you think of 5 pearls for me and 1 pearl plus 9 coral for you?", o="you: pearls 1, coral 9 / me: pearls 5", t="ll")
L("deepseek", "coal", "Let’s settle it: coal 7 + uranium 3 to you; oil 9 + uranium 3 to me.", o="you: coal 7, uranium 3 / me: oil 9, uranium 3")
L("qwen", "ice", "Might I suggest that you take 4 units of helium and 5 units of ice, while I take 8 units of titanium and 2 units of helium?", o="you: helium 4, ice 5 / me: titanium 8, helium 2")
L("mistral", "herbs", "Mercury 4 me. Crystals 10 you. Herbs 3 me.", o="you: crystals 10 / me: mercury 4, herbs 3", t="ll")
L("o-series", "wood", "Proposal (v1): gold 3→you, 3→me; wood 8→me; stone 9→you.", o="you: gold 3, stone 9 / me: gold 3, wood 8")
L("gpt-4o", "copper", "Let's keep it simple this round: 9 copper for you, 5 lithium for me. No one touches silicon.", o="you: copper 9 / me: lithium 5")
L("llama", "seeds", "u get 8 seeds n 3 fertilizer, i get 9 water n 3 fertilizer. fair?", o="you: seeds 8, fertilizer 3 / me: water 9, fertilizer 3",
  n="'fair?' asks only for a view of the offer just made: question false")
L("claude", "cotton", "Would it be alright if I took 5 silk and 2 cotton, and left you 8 wool and the last silk?", o="you: wool 8 / me: silk 5, cotton 2", t="ll",
  n="'the last silk' writes no number: not in the listener's share")
L("gpt-4.1", "sand", "Concrete offer: 3 glass each, plus 10 sand for you and 7 steel for me.", o="you: glass 3, sand 10 / me: glass 3, steel 7")
L("gemini", "coal", "I'd love it if we went with 10 coal for you and 8 oil plus 2 uranium for me — does that work on your end?", o="you: coal 10 / me: oil 8, uranium 2", t="ct")
L("deepseek", "herbs", "New split → me: herbs 9, mercury 3 · you: crystals 7, mercury 3.", o="you: crystals 7, mercury 3 / me: herbs 9, mercury 3", t="ll")
L("qwen", "kelp", "I respectfully propose that you obtain 7 units of kelp and 3 units of pearls, and that I obtain 8 units of coral and 3 units of pearls.", o="you: kelp 7, pearls 3 / me: coral 8, pearls 3")
L("mistral", "ice", "You 10 ice. Me 6 titanium, 3 helium.", o="you: ice 10 / me: titanium 6, helium 3")
L("o-series", "flour", "Offer: sugar×8 + saffron×1 → you; flour×6 + saffron×5 → me. Saffron total 6/6.", o="you: sugar 8, saffron 1 / me: flour 6, saffron 5",
  n="'6/6' is demand over supply, not a split")
L("gpt-4o", "seeds", "Here's what feels balanced to me: you take 6 water and 3 fertilizer, I take 10 seeds and 3 fertilizer.", o="you: water 6, fertilizer 3 / me: seeds 10, fertilizer 3")
L("claude", "wood", "I’d like to float a split where I take 4 gold and 3 wood, and you take the 2 remaining gold with 10 stone.", o="you: gold 2, stone 10 / me: gold 4, wood 3", t="ct ll",
  n="'the 2 remaining gold' writes the listener's number, so it is in the share")
L("llama", "sand", "how bout this 🤔 u: 10 steel, me: 8 sand + 4 glass", o="you: steel 10 / me: sand 8, glass 4")
L("gemini", "cotton", "So here's my thinking: I'll take the 10 cotton, and you can have 8 wool and 5 silk. Cotton is all I really care about!", o="you: wool 8, silk 5 / me: cotton 10", t="ct ll")
L("gpt-4.1", "coal", "Proposal: 4 uranium and 6 coal for me; 2 uranium and 10 oil for you. That keeps uranium at 6, exactly the supply.", o="you: uranium 2, oil 10 / me: uranium 4, coal 6", t="ll")
L("deepseek", "ice", "Try: helium 2/4 (you/me), titanium 10 → you, ice 7 → me.", o="you: helium 2, titanium 10 / me: helium 4, ice 7",
  n="'2/4 (you/me)' gives the listener 2 and the speaker 4")
L("qwen", "herbs", "To ensure that neither party exceeds the supply, I suggest the following: you purchase 3 units of mercury and 6 units of crystals; I purchase 3 units of mercury and 9 units of herbs.", o="you: mercury 3, crystals 6 / me: mercury 3, herbs 9")
L("mistral", "kelp", "Coral 9 for me. Kelp 8 for you. Pearls 3 and 3.", o="you: kelp 8, pearls 3 / me: coral 9, pearls 3", t="ll",
  n="'Pearls 3 and 3' after a me/you split gives each side 3")
L("o-series", "copper", "Candidate allocation — you: {silicon: 9, lithium: 2}; me: {copper: 8, lithium: 4}.", o="you: silicon 9, lithium 2 / me: copper 8, lithium 4")
L("gpt-4o", "flour", "What if we tried 9 flour for you and 4 saffron plus 5 sugar for me this time?", o="you: flour 9 / me: saffron 4, sugar 5",
  n="'What if we tried ...' proposes a split: offer, not hypothetical")
L("llama", "herbs", "idea: i take 6 mercury?? jk. i take 3 mercury + 8 herbs, u take 3 mercury + 9 crystals", o="you: mercury 3, crystals 9 / me: mercury 3, herbs 8", h=1, t="ll",
  n="the joked 6 mercury is taken back at once: mentioned, not proposed (hypothetical); the rest is the offer")
L("claude", "seeds", "Perhaps we could meet in the middle. Asking for 5 fertilizer would be too much, so let’s say 4 fertilizer and 6 seeds for me, and 2 fertilizer with all 10 water for you.", o="you: fertilizer 2, water 10 / me: fertilizer 4, seeds 6", h=1, t="ll",
  n="the 5 fertilizer it rules out is mentioned, not proposed: hypothetical")
L("gemini", "wood", "Let's go half and half on gold — 3 each — and you take 10 wood while I take 9 stone.", o="you: gold 3, wood 10 / me: gold 3, stone 9")
L("deepseek", "sand", "Suggested: you ← steel 9, glass 1; me ← sand 6, glass 5.", o="you: steel 9, glass 1 / me: sand 6, glass 5")
L("gpt-4.1", "herbs", "Here’s a split that avoids any overlap: you take all 10 crystals; I take 10 herbs and 4 mercury.", o="you: crystals 10 / me: herbs 10, mercury 4")
L("qwen", "coal", "Kindly consider the following proposal: 9 units of oil are allocated to you, and 7 units of coal together with 3 units of uranium are allocated to me.", o="you: oil 9 / me: coal 7, uranium 3")
L("mistral", "seeds", "Seeds 10 you, water 10 me. Fertilizer 3 each.", o="you: seeds 10, fertilizer 3 / me: water 10, fertilizer 3")
L("gpt-4o", "ice", "Let me put this on the table: you get 7 ice and 4 titanium, and I get 5 titanium and 5 helium.", o="you: ice 7, titanium 4 / me: titanium 5, helium 5")
L("claude", "kelp", "Could I suggest that you keep the lion’s share of coral — 8 of it — while I take 4 pearls and 6 kelp?", o="you: coral 8 / me: pearls 4, kelp 6")
L("o-series", "sand", "Plan: me sand×7, glass×3; you steel×10, glass×3.", o="you: steel 10, glass 3 / me: sand 7, glass 3", t="ll")
L("llama", "kelp", "lemme grab 4 pearls and 5 coral, and u can grab the other 2 pearls + 10 kelp", o="you: pearls 2, kelp 10 / me: pearls 4, coral 5", t="ll")
L("gemini", "copper", "Since lithium is capped at 6, how about 3 lithium for you and 3 for me, plus 10 silicon for you and 7 copper for me?", o="you: lithium 3, silicon 10 / me: lithium 3, copper 7",
  n="'capped at 6' is the supply, not a cap on a share")
L("gpt-4.1", "wood", "Suggested division: wood 10 to you; stone 6 and gold 2 to me; the other 4 gold to you.", o="you: wood 10, gold 4 / me: stone 6, gold 2")
L("deepseek", "flour", "Allocation → flour: 10 you · sugar: 7 me · saffron: 2 you, 4 me.", o="you: flour 10, saffron 2 / me: sugar 7, saffron 4")
L("claude", "coal", "Let me try a different shape entirely: you take 6 coal and 4 uranium, and I take 10 oil and 2 uranium. It gives you the larger share of uranium, which I gather matters more to you.", o="you: coal 6, uranium 4 / me: oil 10, uranium 2")
L("qwen", "cotton", "After reviewing the supply, I propose that I purchase 6 units of cotton and 2 units of silk, whereas you purchase 10 units of wool and 4 units of silk.", o="you: wool 10, silk 4 / me: cotton 6, silk 2", t="ll")
L("mistral", "wood", "Gold 4 you, gold 2 me. Stone 10 me.", o="you: gold 4 / me: gold 2, stone 10")
L("llama", "ice", "wat if u take 8 titanium and i take 4 helium n 3 ice", o="you: titanium 8 / me: helium 4, ice 3")
L("gpt-4o", "kelp", "Okay, how about I take 7 kelp and 2 pearls, and you take 9 coral and 4 pearls?", o="you: coral 9, pearls 4 / me: kelp 7, pearls 2", t="ll")
L("o-series", "coal", "Offer → you: oil 10, uranium 1. me: coal 6, uranium 5.", o="you: oil 10, uranium 1 / me: coal 6, uranium 5")
L("gemini", "seeds", "Here's a split I'm excited about: 7 seeds and 4 fertilizer for you, 8 water and 2 fertilizer for me!", o="you: seeds 7, fertilizer 4 / me: water 8, fertilizer 2", t="ct")

# --- hedged but real proposals ----------------------------------------------------------
L("gpt-4o", "wood", "maybe you take 6 stone and I take 4 gold?", o="you: stone 6 / me: gold 4",
  n="'maybe' hedges the proposal, but both shares are concrete: an offer (not a near miss, not hypothetical)")
L("claude", "wood", "I could be wrong about what suits you, but perhaps something like 8 stone for you and 4 gold for me?", o="you: stone 8 / me: gold 4",
  n="hedged wording around concrete numbers is still an offer")
L("gemini", "flour", "Just spitballing here — possibly 7 flour for you and 3 saffron for me?", o="you: flour 7 / me: saffron 3")
L("llama", "seeds", "idk, maybe like 6 water for u and 4 fertilizer for me? just throwing it out there", o="you: water 6 / me: fertilizer 4")
L("qwen", "cotton", "Perhaps it might be reasonable for you to purchase 8 units of wool, and for me to purchase 4 units of silk, if you find that agreeable.", o="you: wool 8 / me: silk 4",
  n="'if you find that agreeable' is politeness, not a condition on the split: offer, not hypothetical")
L("mistral", "sand", "Maybe: steel 7 you, glass 4 me. Thoughts?", o="you: steel 7 / me: glass 4",
  n="'Thoughts?' asks for a view of the offer just made: question false")
L("deepseek", "herbs", "Tentative proposal (open to edits): crystals 8 → you, mercury 4 → me.", o="you: crystals 8 / me: mercury 4")
L("claude", "kelp", "I’m not certain this is optimal, but one possibility is that you take 9 kelp and I take 5 coral and 3 pearls. Happy to hear alternatives.", o="you: kelp 9 / me: coral 5, pearls 3", t="ct",
  n="a split put forward as 'one possibility' with concrete numbers is an offer")
L("gpt-4.1", "coal", "I might suggest — loosely — 5 uranium for you and 1 for me, with me taking 9 coal.", o="you: uranium 5 / me: uranium 1, coal 9")
L("gemini", "ice", "Would something like 7 titanium for you and 4 helium for me maybe work? Totally open to tweaking it!", o="you: titanium 7 / me: helium 4")
L("llama", "wood", "prob best if u take the 10 wood n i take like 4 gold? not 100% sure tho", o="you: wood 10 / me: gold 4",
  n="'like 4' is a hedge on a concrete number: the share is 4")
L("o-series", "flour", "Provisional: sugar×9 → you, saffron×4 → me. Subject to your constraints.", o="you: sugar 9 / me: saffron 4")
L("qwen", "copper", "It may be worth considering an allocation in which you acquire 7 units of silicon and I acquire 4 units of lithium.", o="you: silicon 7 / me: lithium 4",
  n="'it may be worth considering an allocation in which ...' puts the split forward: offer, not hypothetical")
L("claude", "herbs", "I wonder whether 3 mercury each, with you on crystals (9) and me on herbs (7), might be a decent compromise?", o="you: mercury 3, crystals 9 / me: mercury 3, herbs 7")
L("mistral", "coal", "Possibly coal 8 you, uranium 4 me. Your call.", o="you: coal 8 / me: uranium 4")
L("gpt-4o", "cotton", "I'm not sure, but maybe I take 8 wool and you take 10 cotton? Just a thought.", o="you: cotton 10 / me: wool 8", t="ct ll")
L("deepseek", "kelp", "Rough idea, not final: pearls 3/3, coral 10 → you.", o="you: pearls 3, coral 10 / me: pearls 3",
  n="'not final' still puts a concrete split forward: offer")

# --- polite corporate prose -------------------------------------------------------------
L("gpt-4.1", "sand", "Thank you for the productive discussion so far. In the interest of a mutually beneficial outcome, I would propose that you secure 9 units of steel while I secure 6 units of sand and 3 units of glass.", o="you: steel 9 / me: sand 6, glass 3")
L("qwen", "ice", "Following careful consideration of both parties’ objectives, I am pleased to present the following allocation for your review: you will acquire 10 units of ice, and I will acquire 7 units of titanium and 3 units of helium.", o="you: ice 10 / me: titanium 7, helium 3")
L("claude", "seeds", "I want to make sure we land somewhere that works well for both of us. With that in mind, my recommendation would be that you take 9 seeds and 2 fertilizer, and I take 8 water and 4 fertilizer. I’m very open to feedback on this.", o="you: seeds 9, fertilizer 2 / me: water 8, fertilizer 4", t="ct")
L("gemini", "wood", "To move us toward alignment, I'd like to formally propose the following: 9 wood and 3 gold to you; 7 stone and 3 gold to me. Please let me know your thoughts at your earliest convenience.", o="you: wood 9, gold 3 / me: stone 7, gold 3", t="ct",
  n="'let me know your thoughts' after an offer asks only for a view of it: question false")
L("qwen", "herbs", "With the goal of maximizing our joint outcome, I respectfully submit the following proposal: Party A (yourself) shall purchase 10 units of herbs; Party B (myself) shall purchase 8 units of crystals and 4 units of mercury.", o="you: herbs 10 / me: crystals 8, mercury 4")
L("gpt-4o", "kelp", "Building on our earlier conversation, I'd like to propose an allocation that plays to each of our strengths: you take 10 kelp and 2 pearls, and I take 7 coral and 4 pearls.", o="you: kelp 10, pearls 2 / me: coral 7, pearls 4", t="ct")
L("claude", "coal", "I appreciate your candour, and I’d like to reciprocate with a concrete proposal. I suggest that I purchase 3 uranium and 8 coal, while you purchase 3 uranium and 10 oil. I believe this gives each of us a viable path to our best projects.", o="you: uranium 3, oil 10 / me: uranium 3, coal 8", t="ct ll")
L("gpt-4.1", "flour", "Per our discussion, here is the allocation I am proposing for this round. You: 8 sugar, 2 saffron. Myself: 7 flour, 4 saffron. I am confident this keeps both of us within supply.", o="you: sugar 8, saffron 2 / me: flour 7, saffron 4")
L("qwen", "copper", "In accordance with the principle of fairness, I propose that each party acquires 3 units of lithium, with yourself additionally acquiring 9 units of copper and myself additionally acquiring 8 units of silicon.", o="you: lithium 3, copper 9 / me: lithium 3, silicon 8",
  n="'each party acquires 3 units' gives both shares")
L("gemini", "cotton", "Thanks so much for your patience! After reviewing everything, I'd like to propose that you receive 10 cotton and 3 silk, while I receive 8 wool and 3 silk. I think this is a win-win!", o="you: cotton 10, silk 3 / me: wool 8, silk 3", t="ct")
L("claude", "ice", "I’d like to offer a proposal that I hope reflects what you’ve shared: you take 3 helium and 8 ice, and I take 3 helium and 9 titanium. If any part of that causes difficulty for you, I’d genuinely like to know.", o="you: helium 3, ice 8 / me: helium 3, titanium 9", t="ct")
L("qwen", "sand", "I hereby propose the following division of resources for the current round: 10 units of glass... I apologize, I meant 5 units of glass for you and 1 unit of glass for me, together with 8 units of steel for me.", o="you: glass 5 / me: glass 1, steel 8", h=1,
  n="the '10 units of glass' corrected in the same breath is mentioned, not proposed: hypothetical; the corrected split is the offer")

# --- terse chat, typos and emoji --------------------------------------------------------
L("llama", "copper", "6 cu... i mean 6 copper 4 u, 4 lithium 4 me", o="you: copper 6 / me: lithium 4",
  n="'4 u' and '4 me' are 'for you' and 'for me'; the stray 'cu' names nothing")
L("llama", "flour", "ok so u 9 sugar me 4 saffron 👍", o="you: sugar 9 / me: saffron 4")
L("mistral", "seeds", "Water 9 u. Fert... fertilizer 4 me.", o="you: water 9 / me: fertilizer 4")
L("llama", "cotton", "hows abt 8 wool 4 u, 5 silk 4 me", o="you: wool 8 / me: silk 5")
L("llama", "sand", "srry typo earlier — i meant u take 9 steel, i take 4 glass", o="you: steel 9 / me: glass 4")
L("gemini", "herbs", "Crystals for you (8) 💎, mercury for me (4) ⚗️ — sound good?", o="you: crystals 8 / me: mercury 4")
L("llama", "kelp", "🐚 4 pearls me, 🪸 10 coral u", o="you: coral 10 / me: pearls 4", t="ll")
L("mistral", "coal", "Oil 9 → u. Uranium 4 → me. Done talking.", o="you: oil 9 / me: uranium 4")
L("llama", "ice", "teh split i want: u 9 titaniun— sorry 9 titanium, me 4 helium", o="you: titanium 9 / me: helium 4",
  n="a misspelt name corrected in the same line: the corrected one is read")
L("deepseek", "wood", "🪵 wood 10 → you · 🪙 gold 4 → me", o="you: wood 10 / me: gold 4")
L("llama", "flour", "u take 8 flour, ill do 5 saffron, no more back n forth pls 🙏", o="you: flour 8 / me: saffron 5")
L("gpt-4o", "copper", "Quick one: 7 silicon yours, 4 lithium mine?", o="you: silicon 7 / me: lithium 4")
L("llama", "seeds", "k final offr: 10 seeds u, 5 fertilizer me", o="you: seeds 10 / me: fertilizer 5")
L("mistral", "cotton", "Silk 4/2 me/you. Wool all 10 you.", o="you: silk 2, wool 10 / me: silk 4", t="ll",
  n="'4/2 me/you' gives the speaker 4 and the listener 2")
L("llama", "herbs", "herbs 7 for u. crystals 6 n mercury 3 for me. thats it thats the offer", o="you: herbs 7 / me: crystals 6, mercury 3")
L("gemini", "ice", "Deal-ish idea 😅: 8 ice for you, 5 helium for me!", o="you: ice 8 / me: helium 5", t="nm",
  n="'Deal-ish idea' introduces a proposal; it accepts nothing")
L("llama", "coal", "me: 3 uranium + 7 coal. u: 3 uranium + 9 oil. ok?", o="you: uranium 3, oil 9 / me: uranium 3, coal 7", t="ll")
L("deepseek", "kelp", "TL;DR → kelp 9 you, coral 8 me, pearls 3 each.", o="you: kelp 9, pearls 3 / me: coral 8, pearls 3")
L("llama", "wood", "gimme 3 gold n 6 stone, u get 10 wood n 3 gold 🤝", o="you: wood 10, gold 3 / me: gold 3, stone 6", t="ll")
L("mistral", "sand", "Sand 10 you; steel 8 me; glass, 3 each. Simple.", o="you: sand 10, glass 3 / me: steel 8, glass 3")

# --- offers with number words -----------------------------------------------------------
L("gpt-4o", "seeds", "How about you take nine seeds and I take six water and three fertilizer?", o="you: seeds 9 / me: water 6, fertilizer 3", t="nw")
L("claude", "cotton", "I’d suggest four silk for me and two silk plus ten cotton for you — that way the silk tilts my way but you’re never left empty.", o="you: silk 2, cotton 10 / me: silk 4", t="nw ct ll")
L("llama", "sand", "ok so like... seven steel for u and five sand for me?", o="you: steel 7 / me: sand 5", t="nw")
L("gemini", "herbs", "My idea: you get eight herbs and two mercury, I get seven crystals and four mercury!", o="you: herbs 8, mercury 2 / me: crystals 7, mercury 4", t="nw")
L("qwen", "kelp", "I propose that you purchase ten units of kelp, while I purchase five units of pearls and six units of coral.", o="you: kelp 10 / me: pearls 5, coral 6", t="nw")
L("mistral", "coal", "Uranium: four me, two you. Oil: ten you.", o="you: uranium 2, oil 10 / me: uranium 4", t="nw ll")
L("deepseek", "ice", "Let’s do titanium six → you, helium four → me, ice three → me.", o="you: titanium 6 / me: helium 4, ice 3", t="nw")
L("o-series", "wood", "Proposal: stone nine → me; wood seven, gold three → you; gold three → me.", o="you: wood 7, gold 3 / me: stone 9, gold 3", t="nw ll")
L("gpt-4.1", "flour", "Here's a tidy version: five sugar and two saffron for you, eight flour and four saffron for me.", o="you: sugar 5, saffron 2 / me: flour 8, saffron 4", t="nw")
L("claude", "copper", "Could we try something like this: you take Seven copper and One lithium, and I take Five lithium and Four silicon?", o="you: copper 7, lithium 1 / me: lithium 5, silicon 4", t="nw")
L("llama", "kelp", "ill take three pearls n you take three pearls + nine kelp", o="you: pearls 3, kelp 9 / me: pearls 3", t="nw ll")
L("gemini", "sand", "What about ten sand for you and six steel for me — and we leave the glass alone?", o="you: sand 10 / me: steel 6", t="nw")
L("qwen", "seeds", "It is my suggestion that you acquire eight units of water and two units of fertilizer, and I acquire four units of fertilizer and seven units of seeds.", o="you: water 8, fertilizer 2 / me: fertilizer 4, seeds 7", t="nw")
L("mistral", "herbs", "Herbs: ten to you. Mercury: five to me. Final.", o="you: herbs 10 / me: mercury 5", t="nw")
L("gpt-4o", "ice", "I’d be happy with three helium and eight titanium, leaving you three helium and all ten ice.", o="you: helium 3, ice 10 / me: helium 3, titanium 8", t="nw ct ll",
  n="'leaving you three helium and all ten ice' writes the listener's numbers, so they are in the share")
L("deepseek", "copper", "Numbers in words to avoid confusion: copper EIGHT to you, lithium FOUR to me.", o="you: copper 8 / me: lithium 4", t="nw")
L("claude", "flour", "Would you be willing to take nine flour while I take five saffron and two sugar?", o="you: flour 9 / me: saffron 5, sugar 2", t="nw")
L("llama", "coal", "two uranium for u, four for me, n u keep ten coal too", o="you: uranium 2, coal 10 / me: uranium 4", t="nw")
L("o-series", "cotton", "Counter: wool seven → you, cotton eight → me, silk split three/three.", o="you: wool 7, silk 3 / me: cotton 8, silk 3", t="nw",
  n="'split three/three' gives each side three")
L("gemini", "kelp", "Let's do six coral for me and two pearls for me, and you take eight kelp and four pearls!", o="you: kelp 8, pearls 4 / me: coral 6, pearls 2", t="nw ll")
L("gpt-4.1", "wood", "Six stone for you, two gold for me, and the rest of the gold — four units — for you as well.", o="you: stone 6, gold 4 / me: gold 2", t="nw",
  n="'the rest of the gold — four units' writes the number, so it is in the share")
L("qwen", "herbs", "I would propose that each of us purchases three units of mercury, with you also receiving nine units of crystals.", o="you: mercury 3, crystals 9 / me: mercury 3", t="nw",
  n="'each of us purchases three units' gives both shares")
L("mistral", "ice", "Titanium ten you. Helium six me. Done.", o="you: titanium 10 / me: helium 6", t="nw")
L("llama", "seeds", "i want five fertilizer n 6 seeds, u can take 10 water n the last one fertilizer", o="you: water 10, fertilizer 1 / me: fertilizer 5, seeds 6", t="nw ll",
  n="digits and number words mixed; 'the last one fertilizer' writes the number")
L("claude", "sand", "I think two glass would do for me, alongside seven sand; you could take the other four glass and all ten steel.", o="you: glass 4, steel 10 / me: glass 2, sand 7", t="nw ll")

# --- offers in markdown, tables, JSON-ish and code blocks --------------------------------
L("gpt-4o", "flour", "Here's my proposed split:\n\n| Resource | You | Me |\n|---|---|---|\n| Flour | 9 | – |\n| Sugar | – | 7 |\n| Saffron | 2 | 4 |\n\nLet me know if anything looks off!", o="you: flour 9, saffron 2 / me: sugar 7, saffron 4", t="md",
  n="a dash in a table cell is zero: left out")
L("claude", "kelp", "To make this easier to scan:\n\n- **Kelp:** all 10 to you\n- **Coral:** 7 to me\n- **Pearls:** 4 to me, 2 to you\n\nI think that covers everything.", o="you: kelp 10, pearls 2 / me: coral 7, pearls 4", t="md")
L("gemini", "coal", "## Proposal 🎯\n\n**For you:** 9 oil, 2 uranium\n**For me:** 7 coal, 4 uranium", o="you: oil 9, uranium 2 / me: coal 7, uranium 4", t="md")
L("deepseek", "ice", "```\nyou: titanium=8 helium=2\nme:  ice=6 helium=4\n```", o="you: titanium 8, helium 2 / me: ice 6, helium 4",
  n="a fenced code block alone does not match the markdown pattern the format test checks, so the markdown tag is not set; the offer is read as written")
L("o-series", "copper", 'Offer (JSON): {"you": {"copper": 8, "lithium": 2}, "me": {"silicon": 7, "lithium": 4}}', o="you: copper 8, lithium 2 / me: silicon 7, lithium 4",
  n="a JSON object with you/me keys is read like any other two-sided offer; not markdown")
L("gpt-4.1", "herbs", '```json\n{\n  "me": {"mercury": 4, "herbs": 6},\n  "you": {"mercury": 2, "crystals": 10}\n}\n```', o="you: mercury 2, crystals 10 / me: mercury 4, herbs 6", t="ll",
  n="JSON in a fenced block: no markdown tag (the block does not match the format's markdown pattern); 'me' written first, so listener_last")
L("qwen", "seeds", "Proposed Allocation:\n1. Party A (you): 10 units of water, 2 units of fertilizer\n2. Party B (me): 8 units of seeds, 4 units of fertilizer", o="you: water 10, fertilizer 2 / me: seeds 8, fertilizer 4", t="md")
L("llama", "wood", "my offer:\n- u get 9 wood\n- i get 5 stone\n- gold 3/3", o="you: wood 9, gold 3 / me: stone 5, gold 3", t="md",
  n="'gold 3/3' gives each side 3")
L("mistral", "sand", "| | steel | glass |\n|---|---|---|\n| you | 10 | 2 |\n| me | 0 | 4 |", o="you: steel 10, glass 2 / me: glass 4", t="md",
  n="a 0 in a table cell is zero: left out")
L("deepseek", "cotton", "### Split proposal\n1. **cotton** → you ×10\n2. **wool** → me ×7\n3. **silk** → me ×4, you ×2", o="you: cotton 10, silk 2 / me: wool 7, silk 4", t="md")
L("gemini", "flour", "Okay here's the plan! 🍰\n\n* You: **8 flour** + **1 saffron**\n* Me: **6 sugar** + **5 saffron**\n\nWhat do you think?", o="you: flour 8, saffron 1 / me: sugar 6, saffron 5", t="md",
  n="'What do you think?' asks for a view of the offer just made: question false")
L("claude", "ice", "Here’s a compact version of what I’m proposing:\n\n| | Ice | Titanium | Helium |\n|---|---|---|---|\n| You | 10 | 2 | 2 |\n| Me | — | 6 | 4 |", o="you: ice 10, titanium 2, helium 2 / me: titanium 6, helium 4", t="md ct",
  n="a dash in a table cell is zero: left out")
L("gpt-4o", "coal", "**Offer:**\n> You: 10 coal, 3 uranium\n> Me: 8 oil, 3 uranium", o="you: coal 10, uranium 3 / me: oil 8, uranium 3", t="md")
L("o-series", "kelp", "allocation:\n  me:\n    pearls: 4\n    kelp: 5\n  you:\n    coral: 9\n    pearls: 2", o="you: coral 9, pearls 2 / me: pearls 4, kelp 5", t="ll",
  n="a YAML-like nesting: read like any other two-sided offer; it matches no markdown pattern")
L("qwen", "wood", "**Proposed Distribution of Resources:**\n- Stone: 8 units (you)\n- Gold: 4 units (me), 2 units (you)\n- Wood: 6 units (me)", o="you: stone 8, gold 2 / me: gold 4, wood 6", t="md")
L("deepseek", "herbs", "**Offer v2**\n| res | me | you |\n|---|---|---|\n| herbs | 8 | 0 |\n| crystals | 0 | 10 |\n| mercury | 4 | 2 |", o="you: crystals 10, mercury 2 / me: herbs 8, mercury 4", t="md ll",
  n="the table's 'me' column comes first: listener_last")
L("llama", "kelp", "ok here it is:\n* kelp → u (all 10)\n* coral → me (6)\n* pearls → 3 each", o="you: kelp 10, pearls 3 / me: coral 6, pearls 3", t="md")
L("gemini", "copper", "**Round 4 split:** 🔧\n1. You take **9 silicon** and **2 lithium**\n2. I take **6 copper** and **4 lithium**", o="you: silicon 9, lithium 2 / me: copper 6, lithium 4", t="md")
L("gpt-4.1", "sand", "Proposal, itemized:\n- sand: 10 (you)\n- steel: 7 (me)\n- glass: 3 (you), 3 (me)", o="you: sand 10, glass 3 / me: steel 7, glass 3", t="md")
L("mistral", "seeds", "- Me: fertilizer 4, water 6\n- You: fertilizer 2, seeds 10", o="you: fertilizer 2, seeds 10 / me: fertilizer 4, water 6", t="md ll")
L("claude", "cotton", "I’ve put it in a table so we can both check it against the supply:\n\n| | Cotton | Wool | Silk |\n|---|---|---|---|\n| You | 8 | 0 | 3 |\n| Me | 0 | 9 | 3 |\n| Total | 8 | 9 | 6 |", o="you: cotton 8, silk 3 / me: wool 9, silk 3", t="md ct",
  n="the Total row sums the shares; it is no one's share")
L("o-series", "coal", "{you: {coal: 9, uranium: 2}, me: {oil: 8, uranium: 4}}", o="you: coal 9, uranium 2 / me: oil 8, uranium 4")
L("qwen", "coal", "Please find my proposal below:\n\n| Party | Coal | Oil | Uranium |\n|---|---|---|---|\n| You | 10 | 0 | 2 |\n| Me | 0 | 8 | 4 |", o="you: coal 10, uranium 2 / me: oil 8, uranium 4", t="md")
L("deepseek", "flour", "```\nflour   you 10\nsugar   me  8\nsaffron me  4 / you 2\n```", o="you: flour 10, saffron 2 / me: sugar 8, saffron 4",
  n="a fenced code block alone: no markdown tag")
L("gpt-4o", "wood", "**TL;DR:** you → 10 wood + 2 gold, me → 7 stone + 4 gold. Full reasoning below if you want it.", o="you: wood 10, gold 2 / me: stone 7, gold 4", t="md")
L("gemini", "herbs", "Quick visual! 🌿\n- 🌿 Herbs → me (9)\n- 💎 Crystals → you (10)\n- ⚗️ Mercury → me (3), you (3)", o="you: crystals 10, mercury 3 / me: herbs 9, mercury 3", t="md ll")

# --- claims and one-sided offers: "my ask is", "put me down for", "you can have", ... ----
L("gpt-4o", "copper", "My ask is simple: 4 lithium, nothing else.", o="me: lithium 4")
L("claude", "wood", "What I’d want, ideally, is 3 gold and 5 stone.", o="me: gold 3, stone 5", t="ct")
L("mistral", "flour", "Put me down for 4 saffron and 6 sugar.", o="me: saffron 4, sugar 6")
L("gemini", "seeds", "You can have all 10 seeds and 4 fertilizer!", o="you: seeds 10, fertilizer 4")
L("llama", "cotton", "im after 4 silk, thats all", o="me: silk 4")
L("gpt-4.1", "sand", "I’ll take 6 steel, leaving you 4 steel and all the sand.", o="you: steel 4 / me: steel 6", t="ct ll",
  n="'leaving you 4 steel' writes the listener's number; 'all the sand' names no units: not in the share")
L("claude", "herbs", "I’ll take 4 mercury and 2 herbs; the remainder goes to you.", o="me: mercury 4, herbs 2", t="ct",
  n="'the remainder goes to you' names no units: the listener's share is null")
L("qwen", "kelp", "My request for this round is 4 units of pearls.", o="me: pearls 4")
L("deepseek", "coal", "Claiming: uranium ×3, coal ×5. Everything else is yours.", o="me: uranium 3, coal 5",
  n="'everything else is yours' names no units: the listener's share is null")
L("o-series", "ice", "Ask: helium×4. Remainder → you.", o="me: helium 4",
  n="'Remainder → you' names no units: the listener's share is null")
L("gpt-4o", "flour", "You're welcome to the 10 flour — I won't be buying any.", o="you: flour 10", t="ct",
  n="'I won't be buying any' is zero flour for the speaker, not its whole share: 'me' stays null")
L("llama", "wood", "stone's all yours lol, gold is what i want — 4 of it", o="me: gold 4",
  n="'stone's all yours' names no units: the listener's share is null")
L("gemini", "kelp", "I'm only after coral this round — 7 of it, to be exact!", o="me: coral 7", t="ct")
L("qwen", "herbs", "I intend to limit my purchase to 3 units of mercury and 5 units of crystals.", o="me: mercury 3, crystals 5")
L("mistral", "sand", "Reserve 5 glass for me.", o="me: glass 5")
L("claude", "copper", "If you’re able to, please leave me 3 lithium — that’s really all I need this round.", o="me: lithium 3", t="ct",
  n="'if you're able to' is politeness on a request for the speaker's share: offer, not hypothetical")
L("gpt-4.1", "coal", "You take the 10 oil. I’ll figure out coal and uranium once I hear your needs.", o="you: oil 10", t="ct")
L("deepseek", "seeds", "Earmark 6 water for me; fertilizer is yours to plan.", o="me: water 6")
L("llama", "ice", "gonna grab 4 helium tbh", o="me: helium 4")
L("gemini", "wood", "You can take all the wood you want — I'm going for 4 gold and 2 stone.", o="me: gold 4, stone 2", t="ct")
L("qwen", "cotton", "You may have 10 units of cotton and 2 units of silk; I shall not require them.", o="you: cotton 10, silk 2")
L("o-series", "flour", "My share: saffron×3, flour×4. Yours: whatever remains.", o="me: saffron 3, flour 4",
  n="'whatever remains' names no units: the listener's share is null")
L("gpt-4o", "herbs", "Go ahead and take 8 crystals — I'm not competing for them.", o="you: crystals 8", t="ct")
L("claude", "sand", "For my part, I’d be content with 4 glass and nothing more.", o="me: glass 4", t="ct")
L("mistral", "kelp", "Pearls 4. Mine. Rest yours.", o="me: pearls 4")
L("llama", "copper", "u can have 8 copper, i dont want it", o="you: copper 8")
L("gemini", "coal", "All I'm really after is 3 uranium — take whatever else you need!", o="me: uranium 3", t="ct")
L("deepseek", "cotton", "Allocating myself: wool ×6. You: rest of the pool.", o="me: wool 6")
L("gpt-4.1", "ice", "I’m going to purchase 3 helium and 5 titanium, which leaves you 3 helium and the full 10 ice.", o="you: helium 3, ice 10 / me: helium 3, titanium 5", t="ct ll",
  n="'leaves you 3 helium and the full 10 ice' writes the listener's numbers, so they are in the share")
L("qwen", "flour", "For the current round, I wish to purchase 5 units of sugar only.", o="me: sugar 5")
L("claude", "seeds", "You’re very welcome to all 10 water; I won’t need any of it.", o="you: water 10", t="ct")
L("llama", "herbs", "all i want is 3 mercury. rest is urs", o="me: mercury 3")
L("mistral", "wood", "Stone 8: yours. Not touching it.", o="you: stone 8")
L("gemini", "cotton", "I'm skipping purchases entirely this round so you can run everything you need! 🙌", o="me: -", t="ct",
  n="buying nothing is a share stated as nothing ({}); the listener's share names no units (null)")
L("gpt-4o", "kelp", "I’ll only claim 2 pearls — you can plan on the other 4.", o="you: pearls 4 / me: pearls 2", t="ct ll")
L("deepseek", "sand", "Ordering: sand ×8. That's final from my side.", o="me: sand 8")
L("claude", "flour", "What I’m hoping for is 4 saffron. Everything else I can do without.", o="me: saffron 4", t="ct")
L("llama", "coal", "put me down for 6 oil n 2 uranium pls", o="me: oil 6, uranium 2")
L("qwen", "ice", "Kindly allocate 4 units of helium to me.", o="me: helium 4")
L("gemini", "cotton", "Feel free to grab 9 wool — I don't need a single one!", o="you: wool 9")
L("gpt-4.1", "copper", "I’d like 5 copper and 2 lithium, if that’s workable.", o="me: copper 5, lithium 2", t="ct",
  n="'if that's workable' asks only for a view of the claim: offer, not hypothetical")
L("mistral", "herbs", "Crystals all yours, 10. Mercury 4 mine.", o="you: crystals 10 / me: mercury 4")
L("o-series", "wood", "Reserving gold×4 for myself; stone and wood unclaimed.", o="me: gold 4")
L("claude", "kelp", "I’m after 6 coral and a couple of pearls — say 2.", o="me: coral 6, pearls 2", t="ct",
  n="'a couple of pearls — say 2' fixes the number at 2")
L("deepseek", "ice", "Leaving you: ice ×10, titanium ×4. Taking: titanium ×6.", o="you: ice 10, titanium 4 / me: titanium 6")
L("gpt-4o", "seeds", "Take half the fertilizer and all 10 seeds; I'll stick to water, 8 of it.", o="you: seeds 10 / me: water 8", t="ct",
  n="'half the fertilizer' names no units (the supply is not written): not in the share")
L("llama", "sand", "u take all the steel, i take 5 glass", o="me: glass 5",
  n="'all the steel' names no units: the listener's share is null")
L("qwen", "seeds", "I would like to leave the water entirely to you, and purchase 4 units of fertilizer for myself.", o="me: fertilizer 4",
  n="'the water entirely' names no units: the listener's share is null")
L("gemini", "ice", "The titanium is all yours — every one of the 10!", o="you: titanium 10")
L("o-series", "coal", "Self-allocation: oil×7. No uranium.", o="me: oil 7",
  n="'No uranium' is zero uranium: left out")

# --- counter-offers after a refusal -----------------------------------------------------
L("gpt-4o", "copper", "I can't do 5 lithium for you. Counter: 3 lithium each, and you keep all 10 copper.", r=1, h=1, o="you: lithium 3, copper 10 / me: lithium 3",
  n="the refused 5 lithium is named under a negation: hypothetical; '3 lithium each' gives both sides 3")
L("claude", "wood", "I’m afraid that doesn’t work for me — it leaves me without any gold. Could we instead try 3 gold for me, 3 gold for you, and 10 stone for you?", r=1, o="you: gold 3, stone 10 / me: gold 3", t="ct nm ll")
L("llama", "flour", "nah. how bout 8 flour u, 4 saffron me", r=1, o="you: flour 8 / me: saffron 4")
L("qwen", "seeds", "I regret that I cannot accept your proposal. Instead, I would suggest that you purchase 10 units of seeds, and I purchase 5 units of fertilizer and 6 units of water.", r=1, o="you: seeds 10 / me: fertilizer 5, water 6", t="nm")
L("mistral", "cotton", "No. Wool 10 you, silk 5 me.", r=1, o="you: wool 10 / me: silk 5")
L("deepseek", "sand", "❌ Can't accept 8 glass for you (supply is 6). Revised: glass 3/3, sand 10 → you, steel 7 → me.", r=1, h=1, o="you: glass 3, sand 10 / me: glass 3, steel 7", t="nm")
L("o-series", "herbs", "Rejected. Counter: mercury×3 each; crystals×10 → you; herbs×6 → me.", r=1, o="you: mercury 3, crystals 10 / me: mercury 3, herbs 6")
L("gemini", "kelp", "Hmm, I don't think that one works for me 😕 What about 4 pearls for me and 2 for you, plus all 10 kelp for you?", r=1, o="you: pearls 2, kelp 10 / me: pearls 4", t="nm ll")
L("gpt-4.1", "coal", "That’s not workable for me. Alternative: you take 10 coal and 2 uranium; I take 9 oil and 4 uranium.", r=1, o="you: coal 10, uranium 2 / me: oil 9, uranium 4")
L("llama", "ice", "lol no 😂 u cant have all the helium. 3 each + u take 10 ice", r=1, o="you: helium 3, ice 10 / me: helium 3",
  n="'all the helium' names no units: not hypothetical; '3 each' gives both sides 3")
L("claude", "seeds", "I have to turn this one down, I’m sorry — with only 1 fertilizer I couldn’t run anything. Would 4 fertilizer for me and 2 for you, with all 10 seeds yours, be possible?", r=1, h=1, o="you: fertilizer 2, seeds 10 / me: fertilizer 4", t="ct ll")
L("qwen", "wood", "Unfortunately, the proposed allocation does not meet my needs. May I propose, as an alternative, that you acquire 9 units of wood and 2 units of gold, and that I acquire 4 units of gold and 6 units of stone?", r=1, o="you: wood 9, gold 2 / me: gold 4, stone 6")
L("mistral", "flour", "Rejected. Saffron 4 me, 2 you. Flour 10 you.", r=1, o="you: saffron 2, flour 10 / me: saffron 4", t="ll")
L("gpt-4o", "herbs", "I'll pass on that one — but here's a counter: 9 herbs for you, 4 mercury and 6 crystals for me.", r=1, o="you: herbs 9 / me: mercury 4, crystals 6", t="ct")
L("deepseek", "copper", "No deal on that. Counter → me: lithium 4, silicon 5; you: lithium 2, copper 10.", r=1, o="you: lithium 2, copper 10 / me: lithium 4, silicon 5", t="nm ll")
L("gemini", "ice", "That split doesn't quite work for me, unfortunately! Could we try 5 titanium each, with 4 helium for me and 2 for you?", r=1, o="you: titanium 5, helium 2 / me: titanium 5, helium 4", t="nm")
L("llama", "cotton", "nope not doing 5 silk for u. 3 silk u, 3 silk me, u take 10 cotton", r=1, h=1, o="you: silk 3, cotton 10 / me: silk 3")
L("claude", "kelp", "I don’t think I can agree to that, I’m afraid. What I could do is 7 coral for me and 3 pearls each, leaving you all 10 kelp.", r=1, o="you: pearls 3, kelp 10 / me: coral 7, pearls 3", t="ct nm ll")
L("o-series", "sand", "Decline. Alt: steel×8 → you; sand×6 + glass×4 → me.", r=1, o="you: steel 8 / me: sand 6, glass 4")
L("gpt-4.1", "flour", "I can’t say yes to that. My counter is 8 sugar for you and 4 saffron plus 6 flour for me.", r=1, o="you: sugar 8 / me: saffron 4, flour 6", t="nm")
L("qwen", "coal", "I must decline. My alternative proposal is as follows: you purchase 3 units of uranium and 8 units of coal, and I purchase 3 units of uranium and 10 units of oil.", r=1, o="you: uranium 3, coal 8 / me: uranium 3, oil 10")
L("mistral", "wood", "No. Gold 3 each. Wood 10 you. Stone 8 me.", r=1, o="you: gold 3, wood 10 / me: gold 3, stone 8")
L("llama", "seeds", "thats a no from me dawg. 6 water me, 10 seeds u", r=1, o="you: seeds 10 / me: water 6", t="ll")
L("gemini", "sand", "Sorry, I can't make that one work! Instead, how about 7 steel for me, and 10 sand plus 3 glass for you?", r=1, o="you: sand 10, glass 3 / me: steel 7", t="ll")

# --- offers that put the partner's proposal forward again, and checks of it ------------
L("gpt-4o", "wood", "Let's go back to your first idea: 6 stone for me and 3 gold for you.", o="you: gold 3 / me: stone 6", t="ll",
  n="the partner's earlier proposal, put forward again from the speaker's side ('for me' is the speaker): an offer; the allocation is proposed, so not hypothetical")
L("claude", "copper", "Your round-one proposal still seems best to me, so I’ll put it forward again: you take 7 copper and 2 lithium, I take 4 lithium and 6 silicon.", o="you: copper 7, lithium 2 / me: lithium 4, silicon 6", t="ct")
L("gemini", "seeds", "You mentioned earlier that you'd be fine with 4 fertilizer for me — let's make that the plan, with 10 water for you.", o="you: water 10 / me: fertilizer 4", t="ct ll",
  n="the partner's earlier remark is taken up as the proposal now: an offer; the same allocation is not also hypothetical")
L("deepseek", "sand", "Re-proposing your own numbers so we're aligned: glass 5 → me, steel 8 → you.", o="you: steel 8 / me: glass 5", t="ct ll",
  n="the partner's numbers are re-proposed from the speaker's side: 'me' is the speaker")
L("gpt-4.1", "kelp", "Just to check I’ve understood: you’re proposing 6 coral for yourself and 4 pearls for me?", q=1, h=1,
  n="restates the partner's proposal to check it, with no commitment: hypothetical and a question, not an offer")
L("llama", "herbs", "wait so ur saying u get 8 crystals n i get 4 mercury? if so im down", q=1, h=1, t="nm",
  n="checks the partner's proposal and agrees only if the reading is right: a conditional acceptance (not an acceptance); the restated split is reported (hypothetical), not offered")
L("claude", "ice", "I know you suggested 5 helium for yourself, but I’d like to propose the mirror image: 5 helium for me and 1 for you, with 10 titanium yours.", o="you: helium 1, titanium 10 / me: helium 5", h=1, t="ct ll",
  n="the partner's suggestion is reported (hypothetical); the mirrored split is the offer")
L("gpt-4o", "flour", "Same as last round, then: 9 flour for you, 4 saffron for me.", o="you: flour 9 / me: saffron 4",
  n="'same as last round' points back to the very allocation it proposes now: labelled once, as the offer (not hypothetical)")
L("o-series", "wood", "Reinstating your v1: stone×8 → me, gold×4 → you.", o="you: gold 4 / me: stone 8", t="ll",
  n="the partner's v1, put forward again from the speaker's side: an offer")
L("qwen", "herbs", "If I understand correctly, you proposed that I purchase 4 units of mercury and you purchase 10 units of crystals. I would like to formally propose that same allocation.", o="you: crystals 10 / me: mercury 4",
  n="the partner's proposal, reported and then formally put forward unchanged: labelled once, as the offer (not hypothetical)")
L("mistral", "cotton", "You proposed taking 4 silk yourself and leaving me 2. Reverse it: silk 4 me, 2 you.", o="you: silk 2 / me: silk 4", h=1, t="ll",
  n="the partner's reported split is hypothetical; the reversed one is the offer")
L("gemini", "coal", "So if I'm reading you right, you'd take 9 oil and I'd take 4 uranium? Could you confirm before we lock anything in?", q=1, h=1,
  n="a check of the partner's proposal, not a proposal: hypothetical and a question, no offer")
L("deepseek", "kelp", "Your last message, mirrored to my side: me ← pearls 2, coral 8; you ← pearls 4, kelp 10. Putting that forward as-is.", o="you: pearls 4, kelp 10 / me: pearls 2, coral 8", t="ll")

# --- offers spread over several sentences ------------------------------------------------
L("claude", "wood", "Let me start with the gold, since that’s the tight one. I’d take 4 of the 6. You’d take the other 2. Then on stone, I think all 10 should go to you. I don’t need wood at all.", o="you: gold 2, stone 10 / me: gold 4", t="ct ll")
L("gpt-4o", "copper", "Okay. Lithium first: 3 for you. Copper next: 8 for you too. And for me, 4 silicon and the remaining 3 lithium.", o="you: lithium 3, copper 8 / me: silicon 4, lithium 3")
L("gemini", "flour", "I've been thinking! Flour isn't something I need. So you can take all 10 of it. I'd love 5 saffron though. And maybe 3 sugar, if that's alright with you!", o="you: flour 10 / me: saffron 5, sugar 3", t="ct",
  n="'maybe 3 sugar, if that's alright' hedges a concrete number: in the share")
L("llama", "seeds", "ok so. water. u take 8. fertilizer. i take 4. seeds. whatever u want", o="you: water 8 / me: fertilizer 4",
  n="'whatever u want' names no units: no seeds in either share")
L("qwen", "kelp", "Regarding coral, I propose that you purchase 8 units. Regarding pearls, I propose that I purchase 4 units and you purchase 2 units. Regarding kelp, I propose that I purchase 5 units.", o="you: coral 8, pearls 2 / me: pearls 4, kelp 5")
L("deepseek", "coal", "Step 1: uranium — 4 me, 2 you.\nStep 2: oil — 10 you.\nStep 3: coal — 6 me.\nThat's the full plan.", o="you: uranium 2, oil 10 / me: uranium 4, coal 6", t="ll")
L("mistral", "ice", "Titanium: I take 4. Helium: you take 2, I take 4. Ice: you take 10.", o="you: helium 2, ice 10 / me: titanium 4, helium 4", t="ll")
L("gpt-4.1", "cotton", "Here's how I see it. Silk is the constraint, with 6 total. I'd take 4 of them. You'd take 2, along with 10 cotton. I'd also take 6 wool.", o="you: silk 2, cotton 10 / me: silk 4, wool 6", t="ct ll")
L("claude", "sand", "I’ve gone back and forth on this. Steel matters most to you, so all 10 should be yours. Glass I’d like to split evenly — 3 and 3. And I’d take 7 sand.", o="you: steel 10, glass 3 / me: glass 3, sand 7", t="ct")
L("gemini", "herbs", "First, mercury: 4 for me, 2 for you. Second, crystals: all 10 for you! Third, herbs: 6 for me. 🌿", o="you: mercury 2, crystals 10 / me: mercury 4, herbs 6", t="ll")
L("o-series", "kelp", "Pearls: I take 3. Coral: you take 9. Kelp: I take 7. Pearls remaining: 3, yours.", o="you: coral 9, pearls 3 / me: pearls 3, kelp 7", t="ll")
L("llama", "wood", "so i was thinking. gold is tight right. i take 3. u take 3. and u can have 10 stone. i'll take 8 wood", o="you: gold 3, stone 10 / me: gold 3, wood 8", t="ct ll")
L("qwen", "flour", "Firstly, I would like to purchase 4 units of saffron. Secondly, I suggest that you purchase the remaining 2 units of saffron. Thirdly, I would purchase 6 units of sugar, leaving all 10 units of flour to you.", o="you: saffron 2, flour 10 / me: saffron 4, sugar 6", t="ll")
L("gpt-4o", "seeds", "Here's my thinking. You said water matters to you, so take 10 of it. I'll go for fertilizer — 4 units. That leaves 2 fertilizer for you if you want them.", o="you: water 10, fertilizer 2 / me: fertilizer 4", t="ct",
  n="'leaves 2 fertilizer for you' writes the listener's number, so it is in the share")
L("deepseek", "herbs", "Plan in three lines:\nme → mercury 4\nyou → mercury 2, crystals 9\nme → herbs 5", o="you: mercury 2, crystals 9 / me: mercury 4, herbs 5", t="ll")
L("claude", "coal", "I’ll keep this short. Uranium: I’d ask for 4. Oil: I don’t need any. Coal: 5 would be plenty for me. Everything else is yours, including the last 2 uranium.", o="you: uranium 2 / me: uranium 4, coal 5", t="ct ll",
  n="'everything else' names no units; 'the last 2 uranium' writes the number, so it is in the listener's share")

# --- acceptances: plain, many registers -------------------------------------------------
L("claude", "wood", "That’s a thoughtful split, and I’m glad to accept it.", a=1)
L("gpt-4o", "copper", "Yes — let's lock that in as our final plan.", a=1)
L("gemini", "flour", "Love it! Consider it agreed 🎉", a=1)
L("llama", "seeds", "bet, we got a deal", a=1)
L("qwen", "cotton", "I hereby accept the allocation you have proposed.", a=1)
L("mistral", "sand", "Accepted. Submitting.", a=1)
L("deepseek", "herbs", "✅ Deal confirmed on my side.", a=1)
L("o-series", "kelp", "Agree. Finalizing per your numbers.", a=1)
L("gpt-4.1", "coal", "That works — I'll submit exactly what you proposed.", a=1)
L("claude", "ice", "I think that’s the right call. Let’s go with your split.", a=1)
L("gpt-4o", "wood", "You drive a hard bargain, but okay — deal.", a=1)
L("llama", "flour", "aight deal 🤝", a=1)
L("gemini", "copper", "Yes please! That's perfect for me.", a=1)
L("qwen", "seeds", "Your proposal is acceptable in its entirety.", a=1)
L("mistral", "cotton", "Deal. Moving on.", a=1)
L("deepseek", "sand", "LGTM — deal.", a=1)
L("o-series", "herbs", "Accepting your v2 as final.", a=1)
L("gpt-4.1", "kelp", "Yes, I can agree to that split.", a=1)
L("claude", "coal", "I’m comfortable with that allocation — let’s make it official.", a=1)
L("llama", "ice", "ya that works, im in", a=1)
L("gpt-4o", "sand", "I'll take it. Deal.", a=1,
  n="'I'll take it' takes the partner's offer: an acceptance, not a claim")
L("gemini", "herbs", "Yes, yes, yes — let's do it!", a=1)
L("qwen", "kelp", "I am satisfied with the proposed distribution and accept it.", a=1)
L("mistral", "coal", "Good. Agreed.", a=1)
L("deepseek", "ice", "Agreed ✔ Locking in now.", a=1)
L("o-series", "wood", "Ack. Deal as stated.", a=1)
L("claude", "flour", "That sounds entirely fair to me. I accept.", a=1)
L("gpt-4.1", "copper", "Done deal.", a=1)
L("llama", "seeds", "say less, deal", a=1)
L("gemini", "cotton", "Perfect! Happy to run with that 😊", a=1)
L("qwen", "sand", "I consent to this allocation.", a=1)
L("gpt-4o", "herbs", "Can't argue with that — deal.", a=1,
  n="'Can't argue with that' concedes the offer and 'deal' takes it: the negation turns nothing down")
L("claude", "kelp", "No objection from me; let’s go ahead as you proposed.", a=1)
L("mistral", "ice", "Fine. Your plan it is.", a=1)
L("deepseek", "wood", "Accepted without changes.", a=1)
L("llama", "copper", "yesss finally lol, deal", a=1)
L("o-series", "flour", "Concur. Submitting your split.", a=1)
L("gemini", "seeds", "That's a great compromise — count me in!", a=1)
L("gpt-4.1", "cotton", "Let’s make it official: I accept.", a=1)
L("qwen", "herbs", "Thank you; I accept your proposal without modification.", a=1)
L("claude", "sand", "I don’t see a better option, so yes — let’s do it.", a=1,
  n="'I don't see a better option' concedes; 'so yes' accepts")
L("gpt-4o", "coal", "Okay, I'm persuaded. Let's call it done.", a=1)
L("llama", "kelp", "ok ok u win, deal 😅", a=1)
L("mistral", "wood", "Yes. Final.", a=1)
L("deepseek", "flour", "Deal 🤝 — I won't touch a single number.", a=1)
L("gemini", "ice", "Sounds wonderful, I'm in!", a=1)
L("o-series", "copper", "Proposal accepted. Executing.", a=1)
L("claude", "herbs", "I’m happy to sign off on that.", a=1)
L("gpt-4.1", "seeds", "Yes, I’ll go along with your allocation.", a=1)
L("qwen", "wood", "I find your proposal agreeable and will proceed with it.", a=1)
L("llama", "sand", "works 4 me 👍 deal", a=1)
L("gpt-4o", "kelp", "Happy to shake on that 🤝", a=1)
L("mistral", "flour", "Agreed, on the terms you proposed.", a=1)
L("gemini", "coal", "You had me at 'all the oil' — deal!", a=1,
  n="the quoted 'all the oil' names no units: not hypothetical")
L("deepseek", "copper", "Agree 100%. Submitting.", a=1)
L("claude", "cotton", "Yes, that’s a split I can fully get behind.", a=1)
L("o-series", "seeds", "Accepted. No counter.", a=1)
L("llama", "herbs", "sure thing boss, deal", a=1)
L("qwen", "ice", "I accept. Let us proceed with the agreed allocation.", a=1)
L("gpt-4.1", "sand", "That’s acceptable. Let’s lock it.", a=1)
L("gpt-4o", "flour", "Why not — let's do it!", a=1,
  n="a rhetorical 'why not' asks nothing: an acceptance, question false")
L("gemini", "kelp", "Deal, deal, deal! 🙌", a=1)
L("mistral", "herbs", "Ok. Accepting that.", a=1)
L("claude", "wood", "I have no problem with that at all — agreed.", a=1)
L("deepseek", "coal", "Confirmed ✅ Your split, verbatim.", a=1)
L("llama", "cotton", "all good w me fam, deal", a=1)
L("qwen", "copper", "Your terms are acceptable to me.", a=1)
L("o-series", "ice", "Yes. Same as your message.", a=1)
L("gpt-4.1", "herbs", "Agreed — I won't ask for any changes.", a=1)
L("gemini", "sand", "Oh that's clever — yes, let's do that!", a=1)
L("claude", "seeds", "That’s generous of you, thank you. I accept.", a=1)
L("gpt-4o", "ice", "Okay, I'm sold. Let's go with it.", a=1)
L("llama", "coal", "deal!!! lets gooo", a=1)
L("mistral", "kelp", "Agreed. Lock it.", a=1)
L("qwen", "flour", "I am in full agreement with your proposal.", a=1)
L("deepseek", "cotton", "👍 Agreed — proceeding.", a=1)
L("qwen", "cotton", "I have no further objections; I accept.", a=1)
L("llama", "wood", "no complaints here, deal", a=1)
L("deepseek", "seeds", "Nothing to change — accepted.", a=1)
L("gemini", "wood", "Honestly? That's perfect. Deal! 🙌", a=1,
  n="'Honestly?' is rhetorical: question false")
L("claude", "copper", "You’ve convinced me — I’m on board with your proposal as written.", a=1)

# --- acceptances that restate the split -------------------------------------------------
L("gpt-4o", "copper", "Deal! So you'll buy 9 silicon and I'll buy 5 lithium.", a=1, o="you: silicon 9 / me: lithium 5", t="ct")
L("claude", "wood", "I’m happy with that: 4 gold and 6 stone for me, and 2 gold with all 10 wood for you.", a=1, o="you: gold 2, wood 10 / me: gold 4, stone 6", t="ct ll")
L("gemini", "flour", "Yes! Locking in 8 flour for you and 5 saffron for me 🔒", a=1, o="you: flour 8 / me: saffron 5")
L("llama", "seeds", "deal — 10 seeds urs, 4 fertilizer mine", a=1, o="you: seeds 10 / me: fertilizer 4")
L("qwen", "cotton", "To restate your proposal in my own terms: I would purchase 6 units of wool, and you would purchase 10 units of cotton. I am prepared to proceed on that basis.", a=1, o="you: cotton 10 / me: wool 6", t="ll",
  n="the partner's proposal restated from the speaker's side and agreed to: an acceptance, with the split as the offer")
L("mistral", "coal", "Your plan, restated: oil 9 you, uranium 4 me. I back it.", a=1, o="you: oil 9 / me: uranium 4")
L("deepseek", "sand", "Accepted ✅\n- me: steel 7, glass 3\n- you: sand 10, glass 3", a=1, o="you: sand 10, glass 3 / me: steel 7, glass 3", t="md ll")
L("o-series", "herbs", "Agree. Final: crystals×9 → you; herbs×7, mercury×4 → me; mercury×2 → you.", a=1, o="you: crystals 9, mercury 2 / me: herbs 7, mercury 4")
L("gpt-4.1", "kelp", "Agreed — put me down for 8 coral and 3 pearls; you're on 10 kelp and 3 pearls.", a=1, o="you: kelp 10, pearls 3 / me: coral 8, pearls 3", t="ct ll")
L("claude", "ice", "That works beautifully for me. To confirm: 4 helium and 6 titanium are mine, and you have 2 helium and all 10 ice.", a=1, o="you: helium 2, ice 10 / me: helium 4, titanium 6", t="ll")
L("llama", "cotton", "ok deal, so thats 4 silk for me and 2 silk + 9 cotton for u right", a=1, o="you: silk 2, cotton 9 / me: silk 4", t="ll",
  n="the tag 'right' only checks the restated split: question false")
L("gemini", "coal", "Perfect — we're set: 8 coal and 3 uranium for you, 9 oil and 3 uranium for me!", a=1, o="you: coal 8, uranium 3 / me: oil 9, uranium 3", t="ct")
L("qwen", "wood", "I accept. Accordingly, I will acquire 7 units of stone and 3 units of gold, while you acquire 10 units of wood and 3 units of gold.", a=1, o="you: wood 10, gold 3 / me: stone 7, gold 3", t="ll")
L("mistral", "seeds", "Done. Fertilizer 4 me, water 10 you.", a=1, o="you: water 10 / me: fertilizer 4", t="ll")
L("deepseek", "flour", "Agreed → flour 9 (you), saffron 4 (me), sugar 6 (me).", a=1, o="you: flour 9 / me: saffron 4, sugar 6")
L("gpt-4o", "herbs", "That's a deal: you get 10 crystals and 2 mercury, I get 4 mercury and 7 herbs.", a=1, o="you: crystals 10, mercury 2 / me: mercury 4, herbs 7")
L("o-series", "sand", "Confirmed. Mine: sand×7, glass×2. Yours: steel×10, glass×4.", a=1, o="you: steel 10, glass 4 / me: sand 7, glass 2", t="ll")
L("claude", "kelp", "Deal — and just so it’s written down: you’re taking 3 pearls and 9 kelp; I’m taking 3 pearls and 8 coral.", a=1, o="you: pearls 3, kelp 9 / me: pearls 3, coral 8", t="ct")
L("llama", "ice", "yes!! 8 titanium for u n 4 helium for me, deal", a=1, o="you: titanium 8 / me: helium 4")
L("gemini", "seeds", "Agreed! I'll stick to 6 water and 3 fertilizer, just like you suggested.", a=1, o="me: water 6, fertilizer 3", t="ct")
L("gpt-4.1", "wood", "Sounds good. I’ll buy exactly 4 gold — nothing else.", a=1, o="me: gold 4", t="ct")
L("qwen", "coal", "I agree. I shall purchase only 3 units of uranium and 7 units of coal, as per your suggestion.", a=1, o="me: uranium 3, coal 7")
L("mistral", "herbs", "Agreed. Mercury 3 each. Herbs 8 me, crystals 10 you.", a=1, o="you: mercury 3, crystals 10 / me: mercury 3, herbs 8", t="ll")
L("deepseek", "kelp", "Deal. Submitting {coral: 7, pearls: 4}.", a=1, o="me: coral 7, pearls 4")
L("gpt-4o", "cotton", "Works for me! Final answer: 10 cotton for you, 7 wool and 4 silk for me.", a=1, o="you: cotton 10 / me: wool 7, silk 4")
L("claude", "copper", "Yes — that’s fair. I’ll take the 3 lithium and 6 silicon, and the 10 copper and remaining 3 lithium are yours.", a=1, o="you: copper 10, lithium 3 / me: lithium 3, silicon 6", t="ct ll")
L("llama", "sand", "deal!! ill get 6 sand, u get 9 steel", a=1, o="you: steel 9 / me: sand 6", t="ll")
L("o-series", "coal", "Accepted: uranium 3/3, oil 10 → me, coal 8 → you.", a=1, o="you: uranium 3, coal 8 / me: uranium 3, oil 10", t="ll",
  n="after the even '3/3', the speaker's own share comes first: listener_last")
L("gemini", "wood", "Yes, that's perfect: **you** take 9 wood + 2 gold, **I** take 8 stone + 4 gold.", a=1, o="you: wood 9, gold 2 / me: stone 8, gold 4", t="md")
L("qwen", "ice", "Your allocation is acceptable: you will receive 9 units of ice and 2 units of helium, and I will receive 4 units of helium and 7 units of titanium.", a=1, o="you: ice 9, helium 2 / me: helium 4, titanium 7")
L("gpt-4.1", "flour", "Deal. I'm on saffron (4) and sugar (5); you're on flour (10) and the last 2 saffron.", a=1, o="you: flour 10, saffron 2 / me: saffron 4, sugar 5", t="ct ll")
L("mistral", "copper", "Yes. Lithium 4 mine, 2 yours. Copper 10 yours.", a=1, o="you: lithium 2, copper 10 / me: lithium 4", t="ll")
L("deepseek", "seeds", "✅ Agreed:\n| | you | me |\n|---|---|---|\n| seeds | 9 | 0 |\n| fertilizer | 2 | 4 |\n| water | 0 | 8 |", a=1, o="you: seeds 9, fertilizer 2 / me: fertilizer 4, water 8", t="md")
L("gpt-4o", "kelp", "Perfect, we're agreed: you get nine kelp and two pearls, I get six coral and four pearls.", a=1, o="you: kelp 9, pearls 2 / me: coral 6, pearls 4", t="nw ct")
L("claude", "herbs", "I accept. So: three mercury each, ten crystals for you, and eight herbs for me.", a=1, o="you: mercury 3, crystals 10 / me: mercury 3, herbs 8", t="nw")
L("gemini", "ice", "Sounds great — I'm happy with 3 helium and 8 titanium on my side! 😊", a=1, o="me: helium 3, titanium 8", t="ct")
L("gpt-4.1", "cotton", "You offered me 5 wool and yourself 8 cotton — accepted.", a=1, o="you: cotton 8 / me: wool 5", t="ll",
  n="'offered me 5 wool and yourself 8 cotton': 'me' is the speaker, 'yourself' the listener")
L("llama", "kelp", "ok bet. so i get 3 pearls n 7 coral, u get 3 pearls n 10 kelp. locking in", a=1, o="you: pearls 3, kelp 10 / me: pearls 3, coral 7", t="ll")

# --- acceptances with more in the same turn ---------------------------------------------
L("gpt-4o", "copper", "Deal! Just curious — which project will the copper go to?", a=1, q=1)
L("claude", "wood", "I’m glad we found this. For your planning next round, my project_b needs 2 gold and 1 stone per run and pays 15.", a=1, d="b: gold 2, stone 1 = 15",
  n="'I'm glad we found this' takes the standing proposal: an acceptance")
L("gemini", "flour", "Yay, deal! 🎉 Are you going to run project_c twice with that?", a=1, q=1)
L("llama", "seeds", "deal. also my project a needs 3 water a run n pays 9 if ur curious", a=1, d="a: water 3 = 9")
L("qwen", "cotton", "I accept your proposal. Could you also share your Project B requirements, for future reference?", a=1, q=1)
L("mistral", "sand", "Accepted. Project_c for me: glass 2, sand 2 → 14.", a=1, d="c: glass 2, sand 2 = 14")
L("deepseek", "herbs", "Deal ✅ Last round we both took 4 mercury — glad we're not repeating that.", a=1, h=1)
L("o-series", "kelp", "Accepted. Q: same split next round, or renegotiate?", a=1, q=1)
L("gpt-4.1", "coal", "Agreed. I'll submit 4 uranium and 6 coal. What are you using the oil for?", a=1, o="me: uranium 4, coal 6", q=1, t="ct")
L("claude", "ice", "That works for me, thank you. Just so you know, I won’t be touching the ice at all, so plan freely around it.", a=1,
  n="'won't be touching the ice' names no units: no share, not hypothetical")
L("gemini", "seeds", "Deal! For context, my project_a needs 2 seeds and 1 fertilizer per run (11 pts) — that's why I wanted the fertilizer. What's your best project?", a=1, d="a: seeds 2, fertilizer 1 = 11", q=1)
L("qwen", "wood", "I agree with your allocation. In the previous round, I purchased 5 units of gold, which caused the overdraw; I will not repeat that.", a=1, h=1)
L("llama", "kelp", "deal 🙌 how many runs u gonna get out of it?", a=1, q=1)
L("gpt-4o", "cotton", "Agreed — thank you! If it helps for later rounds, my project_c uses 3 wool and 1 silk per run for 16 points.", a=1, d="c: wool 3, silk 1 = 16")
L("deepseek", "ice", "Accepted. I'll take 5 titanium + 3 helium as you laid out. My project_b: titanium×2, helium×1 → 13/run.", a=1, o="me: titanium 5, helium 3", d="b: titanium 2, helium 1 = 13", t="ct")

# --- near misses of an acceptance -------------------------------------------------------
# hedged
L("gpt-4o", "copper", "That's not bad — let me sleep on it for a turn.", t="nm")
L("claude", "wood", "I’m inclined to say yes, but I want to double-check the gold first.", t="nm")
L("gemini", "flour", "Ooh, that's tempting! Give me a moment to run the numbers.", t="nm")
L("llama", "seeds", "hmm could work?? lemme think", t="nm",
  n="'could work??' hedges; it asks the partner nothing: question false")
L("qwen", "cotton", "Your proposal has merit. I shall consider it carefully before responding.", t="nm")
L("mistral", "sand", "Possibly acceptable. Checking.", t="nm")
L("deepseek", "herbs", "🤔 Seems OK at first glance; verifying mercury totals before I commit.", t="nm")
L("o-series", "kelp", "Likely acceptable. Awaiting your project list before confirming.", t="nm")
L("gpt-4.1", "coal", "I think I can probably make that work — let me confirm next turn.", t="nm")
L("claude", "ice", "I’m close to agreeing. There’s just one thing I want to think through.", t="nm")
L("gemini", "herbs", "This is so close to perfect! I just need a sec to check my projects.", t="nm")
L("llama", "copper", "prob fine but not 100% yet", t="nm")
L("gpt-4o", "kelp", "I'm not saying no — I'm just not saying yes yet.", t="nm",
  n="neither turns the proposal down nor takes it")
# conditional
L("claude", "coal", "I’d be happy to agree, as long as you confirm you’re staying under 3 uranium.", t="nm",
  n="conditional acceptance: not an acceptance; a cap ('under 3') is not a share: no offer")
L("gpt-4.1", "ice", "Deal, provided you're taking 2 helium and not more.", o="you: helium 2", t="nm ct",
  n="conditional acceptance: not an acceptance; the condition fixes the listener's share at 2, so it is an offer")
L("gemini", "seeds", "Yes — if I can have 4 fertilizer!", o="me: fertilizer 4", t="nm",
  n="acceptance on the condition of the speaker's share: not an acceptance; that share is an offer")
L("qwen", "kelp", "I shall accept, subject to confirmation that you do not require pearls.", t="nm")
L("llama", "sand", "deal if u dont touch the glass", t="nm",
  n="conditional acceptance on the partner taking no glass: zero units name no share, so no offer")
L("mistral", "herbs", "Agreed, if mercury stays 3/3.", o="you: mercury 3 / me: mercury 3", t="nm",
  n="conditional acceptance: not an acceptance; the condition states both shares of mercury, so it is an offer")
L("deepseek", "wood", "Accept — on condition that gold is 4 (me) / 2 (you).", o="you: gold 2 / me: gold 4", t="nm ll",
  n="conditional acceptance: not an acceptance; the condition states both shares of gold, so it is an offer")
L("o-series", "flour", "Accept iff saffron×4 → me.", o="me: saffron 4", t="nm",
  n="'iff' makes the acceptance conditional on the speaker's share: not an acceptance; that share is an offer")
L("gpt-4o", "cotton", "I could agree to that if you can show me the silk adds up.", t="nm")
L("claude", "copper", "If you can confirm your project_b doesn’t need lithium, then yes, we have a deal.", t="nm")
L("gemini", "coal", "Deal — assuming you're okay with me taking 5 coal too!", o="me: coal 5", t="nm ct",
  n="an acceptance conditioned ('assuming ...') on an added share for the speaker: not an acceptance; that share is an offer")
L("qwen", "ice", "I would accept your proposal if you were to reduce your helium purchase to 2 units.", o="you: helium 2", t="nm",
  n="the condition fixes the listener's share at 2: an offer; 'if you were to' conditions the acceptance, it is not a hypothetical allocation")
# asked
L("gpt-4o", "wood", "Are we good to go with that?", q=1, t="nm")
L("claude", "flour", "Can I take that as a yes from your side?", q=1, t="nm")
L("gemini", "copper", "Deal on your end too? 🤞", q=1, t="nm",
  n="asks whether the partner agrees, with no offer in the turn: a question, not an acceptance")
L("llama", "seeds", "so we locked in or nah", q=1, t="nm",
  n="no question mark, but it asks whether the partner agrees: question true")
L("qwen", "sand", "Do you consent to the allocation as described?", q=1, t="nm")
L("mistral", "kelp", "Agreed on your side?", q=1, t="nm")
L("deepseek", "herbs", "Confirm: we have a deal? (y/n)", q=1, t="nm")
L("o-series", "ice", "Final? Reply 'yes' to lock.", q=1, t="nm",
  n="asks the partner to confirm: a question, not an acceptance")
L("gpt-4.1", "cotton", "Shall I take your silence as agreement?", q=1, t="nm")
L("gpt-4o", "coal", "9 oil for you, 4 uranium for me — deal?", o="you: oil 9 / me: uranium 4", t="nm",
  n="'deal?' after an offer asks agreement with it: question false, not an acceptance")
L("claude", "herbs", "Would you be willing to call it a deal at that?", q=1, t="nm")
# negated
L("gemini", "wood", "Sorry, I can't shake on that one!", r=1, t="nm")
L("gpt-4.1", "copper", "I can’t agree to those numbers.", r=1, t="nm")
L("qwen", "flour", "I am not in a position to accept this proposal.", r=1, t="nm")
L("llama", "cotton", "nah that doesnt work 4 me", r=1, t="nm")
L("mistral", "seeds", "Not agreed.", r=1, t="nm")
L("claude", "sand", "I’m not comfortable accepting that split.", r=1, t="nm")
L("deepseek", "coal", "Cannot accept. ❌", r=1, t="nm")
L("o-series", "kelp", "No agreement on that basis.", r=1, t="nm")
# counters dressed as agreement
L("gpt-4o", "sand", "Yes, but with 4 glass for me instead of 3.", o="me: glass 4", h=1, t="nm",
  n="'Yes' followed by a change is a counter; the replaced 3 is hypothetical")
L("claude", "seeds", "I’m on board with most of that — could we just shift one fertilizer my way, making it 4 for me and 2 for you?", o="you: fertilizer 2 / me: fertilizer 4", t="nm ct ll",
  n="'shift one fertilizer my way' is relative; the stated 4/2 is the offer")
L("gemini", "kelp", "Deal! Oh wait — make it 7 coral instead of 6 for me 😅", o="me: coral 7", h=1, t="nm",
  n="an acceptance changed in the same breath is a counter; the replaced 6 is hypothetical")
L("llama", "ice", "ok deal but i get 4 helium not 3", o="me: helium 4", h=1, t="nm")
L("qwen", "herbs", "I am agreeable to your proposal with a single amendment: I would purchase 5 units of herbs rather than 4.", o="me: herbs 5", h=1, t="nm")
L("mistral", "coal", "Fine, except uranium: 4 me.", o="me: uranium 4", t="nm")
L("deepseek", "flour", "Almost agreed — swap saffron: 4 → me, 2 → you.", o="you: saffron 2 / me: saffron 4", t="nm ll")
L("o-series", "copper", "Accept with edit: lithium 3 each (was 4/2).", o="you: lithium 3 / me: lithium 3", h=1, t="nm",
  n="an acceptance with an edit is a counter; the replaced 4/2 is hypothetical")
L("gpt-4.1", "wood", "Agreed on the stone; on gold, I'd want 4 rather than 3.", o="me: gold 4", h=1, t="nm ct",
  n="partial agreement with a counter: accept false; the replaced 3 is hypothetical")
L("claude", "cotton", "That’s very nearly right. If we swapped so you had 8 cotton and I had 8 wool, I’d be able to say yes straight away.", o="you: cotton 8 / me: wool 8", t="nm ct",
  n="'If we swapped so ...' puts the change forward: an offer; 'I'd be able to say yes' is not an acceptance")
L("gemini", "ice", "Yes to the titanium, but let's do helium 3 and 3!", o="you: helium 3 / me: helium 3", t="nm",
  n="partial agreement with a counter on the rest: accept false; 'helium 3 and 3' gives each side 3")
L("llama", "wood", "sounds good except make it 5 stone 4 me", o="me: stone 5", t="nm",
  n="'4 me' is 'for me'")
L("qwen", "sand", "I accept in principle. However, I request 2 additional units of steel, bringing my total to 7 units.", o="me: steel 7", t="nm",
  n="'2 additional units' is relative; the stated total of 7 is the speaker's share")
L("gpt-4o", "herbs", "Great, so close! Just bump my mercury to 4 and we're there.", o="me: mercury 4", t="nm ct")
# agreement with a statement, not a proposal
L("claude", "copper", "I agree — lithium is where the pressure is.", t="nm")
L("gpt-4.1", "flour", "Agreed that saffron needs careful handling this round.", t="nm")
L("gemini", "seeds", "Totally agree that overdrawing again would be the worst outcome!", t="nm")
L("llama", "kelp", "yeah agreed pearls r the problem", t="nm")
L("qwen", "coal", "I concur with your assessment of the uranium supply.", t="nm")
L("mistral", "ice", "Agreed: helium is scarce.", t="nm")
L("deepseek", "cotton", "✅ Agree on the diagnosis: silk is the bottleneck.", t="nm")
L("o-series", "herbs", "Correct. Mercury supply is 6, demand is higher.", t="nm")
L("claude", "wood", "Yes, that matches my understanding of the supply.", t="nm")
L("gpt-4o", "sand", "Good call on sharing projects first — agreed.", t="nm",
  n="agrees to a way of proceeding, not to an allocation")
L("gemini", "flour", "Yes! Let's figure out the saffron first.", t="nm",
  n="'Yes' agrees to an order of discussion, not to an allocation")
# reported and counterfactual
L("gpt-4.1", "ice", "Last round I said yes to 4 helium for you, and it cost me.", h=1, t="nm")
L("claude", "kelp", "If the supply of pearls were 8, I’d accept immediately.", t="nm",
  n="a counterfactual acceptance: not an acceptance; a supply is not an allocation, so not hypothetical")
L("llama", "coal", "u literally said deal to 3 uranium each last time", h=1, t="nm")
L("qwen", "seeds", "I accepted a similar proposal in round 2, but my circumstances have changed.", t="nm")
L("mistral", "flour", "Round 1: you agreed to saffron 3/3.", h=1, t="nm")
L("deepseek", "wood", "Had you offered 3 gold, I'd have accepted on the spot.", h=1, t="nm")
L("gemini", "cotton", "Ah, I would've loved that deal two rounds ago!", t="nm")
L("o-series", "sand", "Reference — round 3 agreement was steel 5/5.", h=1, t="nm",
  n="a reported agreement: hypothetical, not an acceptance")
# taken back
L("gpt-4o", "copper", "Deal! ...Actually, scratch that — I misread the lithium numbers.", t="nm",
  n="an acceptance taken back in the same turn")
L("claude", "flour", "I was about to accept, but I’ve just realised I need more saffron than that.", r=1, t="nm",
  n="the held-back acceptance ends in a refusal: 'I need more saffron than that' turns the proposal down")
L("llama", "sand", "deal!! wait no. nvm. rethinking", t="nm",
  n="an acceptance taken back at once, with nothing turned down yet")
L("gemini", "herbs", "Yes!! Hmm, hold on — let me re-check what mercury I actually need.", t="nm")
L("deepseek", "ice", "Withdrawing my 'agreed' from earlier — helium numbers don't work.", r=1, t="nm")
L("qwen", "kelp", "I previously indicated acceptance; however, upon review, I must withdraw it.", r=1, t="nm")
# acceptance of something else, or of nothing yet
L("gpt-4.1", "sand", "I’ll accept whatever you propose next, as long as it keeps glass under 6.", t="nm",
  n="accepts a proposal not yet made: not an acceptance; a cap is not a share")
L("claude", "ice", "I accept that you need titanium more than I do; the question is the helium.", t="nm",
  n="'I accept that ...' accepts a point, not a proposal")
L("mistral", "wood", "Deal next round, maybe. Not this one.", r=1, t="nm",
  n="'Not this one' turns the present proposal down")
L("llama", "flour", "thanks 4 the offer!! thinking it over", t="nm")
L("gemini", "coal", "Ooh, a deal with only 2 uranium for me? Hmm, I'm not so sure... 🤔", h=1, t="nm",
  n="the partner's offer is echoed to weigh it (hypothetical); the echo asks nothing (question false); hesitation is not a refusal")
L("o-series", "seeds", "Acknowledged. Evaluating.", t="nm",
  n="acknowledges the proposal without taking it")
L("gpt-4o", "ice", "Okay, I hear you. Let me come back with numbers.", t="nm",
  n="'Okay' acknowledges; nothing is accepted")
L("deepseek", "kelp", "Deal-shaped, but not a deal yet — pearls still open.", t="nm")

# --- rejections, explicit and implicit --------------------------------------------------
L("gpt-4o", "wood", "I'm going to have to decline this one.", r=1)
L("claude", "copper", "I’m sorry, but that doesn’t leave me enough to run anything worthwhile.", r=1)
L("gemini", "flour", "Hmm, no — that's a bit too one-sided for me.", r=1)
L("llama", "seeds", "nope. zero fertilizer for me? no way", r=1,
  n="a share of zero names no units: not hypothetical; the echo question is rhetorical")
L("qwen", "cotton", "I am afraid I must reject this proposal, as it does not allow me to complete any project.", r=1)
L("mistral", "sand", "Rejected. Try again.", r=1)
L("deepseek", "herbs", "Hard no: 5 mercury for you leaves 1 for me.", r=1, h=1)
L("o-series", "kelp", "Infeasible for me. Declining.", r=1)
L("gpt-4.1", "coal", "I can’t go for that — uranium is the one thing I can’t give up.", r=1)
L("claude", "ice", "I’ll have to say no to this one — I’d come away with nothing I can use.", r=1)
L("llama", "copper", "bro thats all the lithium for u 💀 no", r=1,
  n="'all the lithium' names no units: not hypothetical")
L("gemini", "wood", "Sorry, I really can't do that one! Gold is my whole strategy.", r=1)
L("qwen", "flour", "The proposed allocation is unacceptable to me, since it provides no saffron for my projects.", r=1)
L("mistral", "seeds", "Nope. Water is mine.", r=1)
L("deepseek", "cotton", "Decline ❌ — silk 6 for you = entire supply.", r=1, h=1)
L("gpt-4o", "sand", "That won't work for me, I'm afraid — I need the steel.", r=1, t="nm")
L("claude", "herbs", "With respect, I don’t think that allocation is workable for me.", r=1)
L("o-series", "ice", "Reject: titanium 9 → you starves my project_b.", r=1, h=1)
L("llama", "kelp", "lol thats a no. u get everything i get nothing", r=1)
L("gemini", "coal", "I'm going to pass on that one, but I appreciate the effort! 🙏", r=1)
L("gpt-4.1", "wood", "That doesn’t work. You’d have 5 of the 6 gold.", r=1, h=1, t="nm")
L("qwen", "ice", "I must decline, as this allocation leaves me unable to run Project A.", r=1)
L("deepseek", "flour", "No. 3 saffron can't cover two runs for me.", r=1, h=1,
  n="the refused proposal's 3 saffron for the speaker is evaluated: hypothetical")
L("mistral", "herbs", "Decline. Crystals 10 to you is too much.", r=1, h=1)
L("claude", "seeds", "I appreciate you putting that together, but I’ll have to pass.", r=1)
L("gpt-4o", "kelp", "Sorry, that's a hard no on the pearls.", r=1)
L("llama", "sand", "nah, i need way more glass than that", r=1)
L("gemini", "herbs", "That leaves my best project completely unfunded, so I'll have to say no.", r=1)
L("o-series", "copper", "Negative. Lithium over-allocated to you.", r=1)
L("qwen", "wood", "With regret, I cannot endorse this proposal.", r=1)
L("gpt-4.1", "kelp", "I’m not able to take that deal.", r=1, t="nm")
L("deepseek", "coal", "Not viable: my project_c gets zero uranium.", r=1)
L("claude", "cotton", "I’d rather not, if that’s alright — that split leaves my wool projects short.", r=1,
  n="'if that's alright' is politeness: the refusal stands")
L("mistral", "ice", "No. Helium 0 for me is unacceptable.", r=1,
  n="a share of 0 names no units: not hypothetical")
L("llama", "flour", "ur offer is kinda trash ngl, no", r=1)
L("gemini", "sand", "Hmm, that gives you pretty much everything. I'll pass!", r=1)
L("gpt-4o", "seeds", "I'm sorry, but I can't accept 1 fertilizer — it's useless to me.", r=1, h=1, t="nm")
L("qwen", "herbs", "I must respectfully reject the proposal, as it exceeds the available supply of mercury.", r=1)
L("deepseek", "wood", "Rejecting. Reason: gold 7 > supply 6.", r=1, h=1,
  n="the refused proposal's total is checked against supply: hypothetical")
L("claude", "coal", "I don’t think I can do that — it would mean giving up the project I care most about.", r=1)
L("o-series", "seeds", "Declined. Fertilizer allocation unworkable.", r=1)
L("gpt-4.1", "herbs", "I'll decline, but I'm open to another proposal.", r=1)
L("llama", "ice", "no thx, helium is my whole thing", r=1)
L("mistral", "cotton", "No. Silk is not negotiable.", r=1)
L("gemini", "kelp", "That would leave me with just one pearl, which doesn't help me at all.", r=1, h=1,
  n="an implicit refusal; the one pearl the proposal would leave the speaker is an allocation of it: hypothetical")
L("claude", "wood", "Unfortunately 2 gold won’t get me even one run.", r=1, h=1,
  n="an implicit refusal of the proposal's 2 gold: hypothetical")
L("qwen", "copper", "I am compelled to decline, since my projects cannot function without lithium.", r=1)
L("gpt-4o", "flour", "I can't do that split. What's the least saffron you could live with?", r=1, q=1)
L("deepseek", "sand", "No. Why do you need 8 steel?", r=1, q=1, h=1,
  n="the refused 8 steel is named: hypothetical; the question asks for a reason: question true")
L("gemini", "copper", "I'll have to say no — that leaves me only scraps of silicon!", r=1)
L("mistral", "kelp", "Too greedy. No.", r=1)

# --- disclosures ------------------------------------------------------------------------
L("gpt-4o", "copper", "For transparency: project_a on my side takes 3 silicon plus 1 lithium each run, paying 13.", d="a: silicon 3, lithium 1 = 13")
L("claude", "wood", "I’ll share mine so we can plan together: project_b takes 2 stone and 2 gold each run and pays 17, while project_c takes 4 wood for 6.", d="b: stone 2, gold 2 = 17; c: wood 4 = 6")
L("gemini", "flour", "Here are my projects! 🍞\n- **project_a:** 2 flour + 2 sugar → 8 per run\n- **project_b:** 1 saffron + 1 sugar → 13 per run", d="a: flour 2, sugar 2 = 8; b: saffron 1, sugar 1 = 13")
L("llama", "seeds", "my proj a is 3 seeds + 1 water, gets 8. proj c is 2 fertilizer for 14", d="a: seeds 3, water 1 = 8; c: fertilizer 2 = 14",
  n="'proj a' is project_a; a project's needs with its reward are read as per run")
L("qwen", "cotton", "Please note that my Project C requires 2 units of silk and 2 units of cotton per run, with a reward of 18 points per run.", d="c: silk 2, cotton 2 = 18")
L("mistral", "sand", "Mine — A: steel 3 → 11. C: glass 2, sand 1 → 16.", d="a: steel 3 = 11; c: glass 2, sand 1 = 16")
L("deepseek", "herbs", '{"project_a": {"needs": {"mercury": 2, "herbs": 1}, "reward": 15}}', d="a: mercury 2, herbs 1 = 15",
  n="a disclosure written as JSON")
L("o-series", "kelp", "project_b: pearls×3 → 19/run. project_c: kelp×2, coral×2 → 9/run.", d="b: pearls 3 = 19; c: kelp 2, coral 2 = 9")
L("gpt-4.1", "coal", "My only project that matters, project_c, needs 2 uranium and 1 oil per run; I’d prefer to keep its reward to myself.", d="c: uranium 2, oil 1 = ?")
L("claude", "ice", "To be fully open with you: project_a needs one ice and two helium per run and pays nineteen.", d="a: ice 1, helium 2 = 19")
L("gemini", "wood", "My project_c is all about gold — 3 gold per run for 20 points!", d="c: gold 3 = 20")
L("llama", "copper", "project b for me = 2 lithium + 2 silicon, 16 pts each time", d="b: lithium 2, silicon 2 = 16")
L("qwen", "flour", "My Project A requires 2 units of sugar per run and yields 7 points; my Project C requires 2 units of saffron and 1 unit of flour per run and yields 17 points.", d="a: sugar 2 = 7; c: saffron 2, flour 1 = 17")
L("mistral", "kelp", "B: coral 3 per run. Reward 12.", d="b: coral 3 = 12")
L("deepseek", "seeds", "| my project | needs/run | pays |\n|---|---|---|\n| b | water 2, fertilizer 2 | 15 |\n| c | seeds 4 | 7 |", d="b: water 2, fertilizer 2 = 15; c: seeds 4 = 7")
L("gpt-4o", "sand", "Quick disclosure: project_c needs 2 glass and 2 steel per run, and it's worth 18 to me.", d="c: glass 2, steel 2 = 18")
L("claude", "cotton", "My third project — the one I haven’t mentioned yet — needs 4 wool per run and pays 12.", d="c: wool 4 = 12",
  n="'my third project' is project_c")
L("o-series", "coal", "Reqs (mine): A = oil×3 → 9; B = uranium×2, coal×1 → 18.", d="a: oil 3 = 9; b: uranium 2, coal 1 = 18")
L("gemini", "herbs", "For context, my project_b uses 3 crystals per run — but honestly it only pays 5.", d="b: crystals 3 = 5")
L("mistral", "copper", "Project_a: silicon 2, copper 2 → 10. Need silicon. You?", d="a: silicon 2, copper 2 = 10", q=1,
  n="'You?' asks for the partner's projects: question true")
L("gemini", "sand", "Sharing mine first! project_a is 2 sand + 1 glass per run (9 pts). What do yours look like?", d="a: sand 2, glass 1 = 9", q=1)
L("qwen", "coal", "I shall disclose: Project B requires 3 units of coal per run, with a reward of 10. Would you kindly reciprocate?", d="b: coal 3 = 10", q=1)
L("gpt-4o", "herbs", "My project_c needs 2 mercury per run and pays 21. If I only get 1 mercury, I can't run it at all.", d="c: mercury 2 = 21", h=1)
L("llama", "flour", "ok my numbers: a = 2 flour (6 pts), b = 1 saffron + 1 sugar (12 pts). so yea saffron matters", d="a: flour 2 = 6; b: saffron 1, sugar 1 = 12")
L("claude", "kelp", "Since you asked: project_b needs two coral and one kelp per run, and it pays 10. It’s modest, but it’s what I have.", d="b: coral 2, kelp 1 = 10")
L("deepseek", "cotton", "Disclosure → project_a: cotton×3 (💰6), project_b: silk×2 + wool×1 (💰17).", d="a: cotton 3 = 6; b: silk 2, wool 1 = 17")
L("o-series", "ice", "project_c: titanium×4, reward n/a (not disclosing).", d="c: titanium 4 = ?")
L("gpt-4.1", "seeds", "To answer your question: project_b needs 1 seeds and 3 water per run, reward 11.", d="b: seeds 1, water 3 = 11")
L("qwen", "ice", "My Project A requires 3 units of titanium and 1 unit of ice per run, and its reward is 14. Project B requires 2 units of helium per run; I prefer not to disclose its reward.", d="a: titanium 3, ice 1 = 14; b: helium 2 = ?")
L("gemini", "copper", "Oh, and my project_c needs 3 lithium per run (reward 24) — that's my big one!", d="c: lithium 3 = 24")
L("mistral", "wood", "A: wood 2, stone 2 → 8. B: gold 2 → 14. C: stone 3 → 9.", d="a: wood 2, stone 2 = 8; b: gold 2 = 14; c: stone 3 = 9")
L("claude", "sand", "Here’s mine, as promised:\n\n- project_a — 3 sand per run, 7 points\n- project_b — 2 glass and 1 steel per run, 16 points\n\nSo glass is where we might collide.", d="a: sand 3 = 7; b: glass 2, steel 1 = 16")
L("llama", "ice", "my projects mostly need helium tbh",
  n="names a resource without quantities: no disclosure")
L("gpt-4.1", "kelp", "Three runs of my project_a would take 9 coral altogether.",
  n="a total over three runs is not a per-run requirement: no disclosure; arithmetic on a requirement is not an allocation")
L("qwen", "wood", "My Project B is my most lucrative, yielding 22 points per run.",
  n="a reward without requirements is not a disclosure")
L("claude", "flour", "Noted: your project_c needs 2 saffron per run.",
  n="the partner's project, not the speaker's: no disclosure")
L("deepseek", "herbs", "Per-run needs (mine):\n- project_b: crystals 2\n- project_c: herbs 3, mercury 1\nRewards withheld for now.", d="b: crystals 2 = ?; c: herbs 3, mercury 1 = ?")

# --- questions --------------------------------------------------------------------------
L("gpt-4o", "wood", "How much gold would you need to run your top project twice?", q=1)
L("claude", "copper", "Would you mind telling me what your best project pays per run?", q=1)
L("gemini", "flour", "Ooh, which of your projects uses saffron? 🤔", q=1)
L("llama", "seeds", "yo u need water or nah", q=1,
  n="no question mark, but it asks for information: question true")
L("qwen", "cotton", "Might I inquire as to how many units of silk your projects require?", q=1)
L("mistral", "sand", "Glass: need any?", q=1)
L("deepseek", "herbs", "Q1: your project_a reqs? Q2: reward?", q=1)
L("o-series", "kelp", "Which of your projects is binding on pearls?", q=1)
L("gpt-4.1", "coal", "Is uranium essential to all of your projects, or just one?", q=1)
L("claude", "ice", "Before I suggest anything, could you tell me whether helium or titanium matters more to you?", q=1)
L("gemini", "wood", "Tell me about your projects — what do they need?", q=1)
L("llama", "kelp", "how many pearls u actually need tho", q=1)
L("qwen", "herbs", "Could you specify the reward associated with your Project C?", q=1)
L("gpt-4o", "cotton", "Out of curiosity, do you plan to buy any wool at all?", q=1)
L("deepseek", "copper", "Need: your lithium per run. Please share.", q=1,
  n="a request for information without a question mark: question true")
L("mistral", "seeds", "Fertilizer. How many?", q=1)
L("claude", "sand", "What would you need from me to make your steel project viable?", q=1)
L("gemini", "coal", "Which resource would you be happiest to give up entirely?", q=1)
L("o-series", "flour", "State your saffron minimum.", q=1,
  n="an imperative request for information: question true")
L("gpt-4.1", "ice", "Did your project_b run last round, or was it short on titanium?", q=1)
L("llama", "wood", "wait what project even uses stone for u", q=1)
L("qwen", "sand", "May I ask which of your projects yields the highest reward?", q=1)
L("claude", "herbs", "I’m curious how you’re thinking about the mercury — is it a must-have for you or a nice-to-have?", q=1)
L("gpt-4o", "kelp", "What's your plan for the coral this round?", q=1)
L("deepseek", "ice", "Which project are you optimizing for: a, b or c?", q=1)
L("gemini", "cotton", "Do you have a project that uses cotton? Just trying to figure out if we overlap!", q=1)
L("mistral", "coal", "Oil matter to you?", q=1)
L("gpt-4.1", "copper", "Would you prefer to focus on copper or silicon this round?", q=1)
L("claude", "seeds", "Please let me know how many runs of your main project you’re hoping for.", q=1,
  n="a request for information phrased as 'please let me know': question true")
L("llama", "herbs", "so whats ur best project worth", q=1)
L("qwen", "kelp", "Would you be so kind as to explain why you require pearls?", q=1)
L("o-series", "wood", "Stone per run on your side — how much?", q=1)

# --- hypotheticals ----------------------------------------------------------------------
L("gpt-4o", "copper", "If you took all 6 lithium, I couldn't run a single project.", h=1)
L("claude", "wood", "Last round you bought 5 gold and I bought 2 — that one extra unit is what sank us.", h=1)
L("gemini", "flour", "If we both grabbed 4 saffron, we'd blow past the supply!", h=1)
L("llama", "seeds", "if i get 2 fertilizer thats literally 1 run lol", h=1)
L("qwen", "cotton", "Were you to purchase 4 units of silk, I would be unable to run Project B.", h=1)
L("mistral", "sand", "Round 3 recap: steel 6 you, 6 me. Annulled.", h=1,
  n="a reported allocation of an earlier round: hypothetical, not an offer")
L("deepseek", "herbs", "Check: mercury 5 (you) + 2 (me) = 7 > 6 → overdraw.", h=1,
  n="an allocation checked and found infeasible: hypothetical, not an offer")
L("o-series", "kelp", "Counterfactual: coral 5/5 would have doubled my reward last round.", h=1)
L("gpt-4.1", "coal", "You mentioned taking 3 uranium earlier, which is why I planned around that.", h=1)
L("claude", "ice", "Even with 4 helium, I’d only manage two runs of project_b.", h=1)
L("gemini", "wood", "I definitely won't be buying 5 gold, don't worry!", h=1,
  n="a negated allocation: hypothetical, no offer")
L("llama", "copper", "remember when we both took 4 lithium lol. never again", h=1)
L("qwen", "flour", "Should each of us purchase 4 units of saffron, the total would be 8, exceeding the supply of 6.", h=1)
L("mistral", "herbs", "Not taking 5 mercury. Ever.", h=1,
  n="a negated allocation: hypothetical, no offer")
L("deepseek", "seeds", "Scenario B: water 10 → you, 0 → me. My project_b dies.", h=1)
L("gpt-4o", "kelp", "If you'd stuck to 3 pearls instead of 5, neither of us would have walked away with zero.", h=1)
L("claude", "cotton", "In round one, I took 6 wool and you took 4, and it worked out for both of us.", h=1)
L("gemini", "coal", "I'm not going to grab all 10 oil, promise!", h=1,
  n="a negated allocation: hypothetical, no offer")
L("llama", "herbs", "if u take 8 crystals i honestly dont care", h=1,
  n="an allocation evaluated, not proposed: hypothetical")
L("qwen", "sand", "If I were to receive 3 units of glass, I could complete Project A only once.", h=1)
L("gpt-4.1", "wood", "Two rounds ago you proposed 8 stone for yourself.", h=1)
L("o-series", "ice", "If helium 4 → you, my max runs drop to 1.", h=1)
L("claude", "seeds", "Suppose you took 5 fertilizer — would you actually use all of it?", h=1, q=1,
  n="'Suppose you took' explores a consequence: hypothetical, not an offer")
L("gemini", "herbs", "What would happen if I took 4 mercury — would your project still run?", h=1, q=1,
  n="asks about the consequence of an allocation: hypothetical, not an offer")
L("mistral", "kelp", "Earlier: pearls 4 you, 2 me. Failed.", h=1)
L("deepseek", "coal", "If uranium 3/3, both projects run once. If 4/2, only mine runs twice.", h=1,
  n="allocations compared, none proposed: hypothetical")
L("llama", "ice", "bro if i had 6 helium id be set", h=1)
L("gpt-4o", "sand", "With only 2 glass I'd be stuck at one run.", h=1)
L("qwen", "coal", "I shall not purchase 10 units of oil under any circumstances.", h=1,
  n="a negated allocation: hypothetical")
L("claude", "flour", "Your first proposal gave me 2 saffron, which wasn’t enough — your new one is better, but I’m still thinking.", h=1, t="nm",
  n="the earlier proposal is reported: hypothetical; the new one is neither accepted nor refused")
L("gemini", "copper", "If lithium were split 3/3, would your project_b still be viable?", h=1, q=1)
L("deepseek", "wood", "Past rounds: R1 gold 3/3 ✅, R2 gold 4/3 ❌.", h=1)

# --- longer turns that mix acts -----------------------------------------------------------
L("claude", "flour", "Thanks for explaining your side. I’ll be equally open: my project_b needs 2 saffron and 1 sugar per run and pays 19, and that’s the only one I really care about. If you took 4 saffron, I couldn’t even run it twice. So here’s what I’d suggest: 4 saffron and 2 sugar for me, and 2 saffron with all 10 flour for you. Would that still let you run your main project?",
  d="b: saffron 2, sugar 1 = 19", h=1, o="you: saffron 2, flour 10 / me: saffron 4, sugar 2", q=1, t="ct ll",
  n="the closing question asks about the partner's projects: question true")
L("gpt-4o", "copper", "I can't accept that split, unfortunately. My project_a needs 2 lithium and 1 copper per run and pays 14, so 1 lithium does nothing for me. Counter: 4 lithium and 2 copper for me, 2 lithium and 8 silicon for you. What does your best project need?",
  r=1, d="a: lithium 2, copper 1 = 14", h=1, o="you: lithium 2, silicon 8 / me: lithium 4, copper 2", q=1, t="nm ll")
L("gemini", "seeds", "Yay, that works for me! 🎉 I'll go with 6 water and 2 fertilizer like you said. By the way, my project_c needs 3 water per run and pays 12 — are you running anything with water?",
  a=1, o="me: water 6, fertilizer 2", d="c: water 3 = 12", q=1, t="ct")
L("llama", "coal", "ok real talk. my project b is 2 uranium + 1 coal per run for 16. last round u took 4 uranium n i was stuck. so this time 4 uranium + 2 coal for me, 2 uranium + 10 oil for u?",
  d="b: uranium 2, coal 1 = 16", h=1, o="you: uranium 2, oil 10 / me: uranium 4, coal 2", t="ll",
  n="last round's purchase is hypothetical; the closing split is a question-phrased offer")
L("qwen", "herbs", "Thank you for your proposal. Regrettably, I cannot accept it, as my Project A requires 2 units of mercury and 2 units of herbs per run, yielding 16 points, and your proposal allocates only 1 unit of mercury to me. I propose instead that I purchase 4 units of mercury and 4 units of herbs, while you purchase 2 units of mercury and 10 units of crystals. Could you confirm whether your projects require herbs?",
  r=1, d="a: mercury 2, herbs 2 = 16", h=1, o="you: mercury 2, crystals 10 / me: mercury 4, herbs 4", q=1, t="nm ll")
L("deepseek", "kelp", "**Where we stand**\n- My project_c: pearls×2 + coral×1 → 18/run\n- Round 2: we both took 3 pearls → fine\n\n**Proposal:** me pearls 4 + coral 2, you pearls 2 + kelp 10.\n\nAny issue with coral on your side?",
  d="c: pearls 2, coral 1 = 18", h=1, o="you: pearls 2, kelp 10 / me: pearls 4, coral 2", q=1, t="md ll")
L("gpt-4.1", "sand", "Agreed on the steel — all 10 to you. On glass, I need 4: my project_b uses 2 glass and 1 sand per run and pays 15. So the full plan would be 4 glass and 2 sand for me, 2 glass and 10 steel for you. Does that cover your side?",
  d="b: glass 2, sand 1 = 15", o="you: steel 10, glass 2 / me: glass 4, sand 2", q=1, t="nm",
  n="partial agreement with a counter on the rest: accept false; 'Does that cover your side?' asks about the partner's projects: question true")
L("o-series", "wood", "Recap: R1 overdraw (gold 4+4). My project_a = gold×2 + stone×1 → 17. Proposal: me gold×4 + stone×2; you gold×2 + wood×10. Your reqs?",
  h=1, d="a: gold 2, stone 1 = 17", o="you: gold 2, wood 10 / me: gold 4, stone 2", q=1, t="ll")
L("claude", "ice", "That works for me, and thank you for being so accommodating. Just to restate it: I’ll take 4 helium and 3 ice, and you’ll take 2 helium and all 10 titanium. For what it’s worth, my project_a needs 2 helium and 1 ice per run and pays 15, so this gives me two full runs.",
  a=1, o="you: helium 2, titanium 10 / me: helium 4, ice 3", d="a: helium 2, ice 1 = 15", t="ct ll")
L("mistral", "cotton", "No. My project_b: silk 2, wool 2 → 19. Need 4 silk. Counter: silk 4 + wool 4 me; silk 2 + cotton 10 you. Yours?",
  r=1, d="b: silk 2, wool 2 = 19", o="you: silk 2, cotton 10 / me: silk 4, wool 4", q=1, t="ll",
  n="'Need 4 silk' explains the counter that follows; the counter is the offer")
L("gemini", "flour", "Hmm, I see where you're coming from! If I only got 1 saffron I'd be stuck, since my project_a needs 2 saffron per run (reward 20). Could we do 4 saffron for me and 2 for you, and you take all the flour?",
  h=1, d="a: saffron 2 = 20", o="you: saffron 2 / me: saffron 4", t="ct ll",
  n="'all the flour' names no units: not in the share; the closing proposal is phrased as a question: question false")
L("gpt-4o", "wood", "Deal — that's fair. I'll buy 7 stone and 3 gold. Also, for next round: my project_c needs 3 stone and 1 gold per run and pays 13, so I'll probably want a similar split. Are you planning to keep the same projects?",
  a=1, o="me: stone 7, gold 3", d="c: stone 3, gold 1 = 13", q=1, t="ct")
L("qwen", "seeds", "I appreciate your openness. My Project B requires 3 units of water and 1 unit of fertilizer per run, yielding 13 points, and my Project C requires 4 units of seeds per run, yielding 8 points. Given these requirements, I propose that I purchase 9 units of water and 3 units of fertilizer, and you purchase 10 units of seeds and 3 units of fertilizer.",
  d="b: water 3, fertilizer 1 = 13; c: seeds 4 = 8", o="you: seeds 10, fertilizer 3 / me: water 9, fertilizer 3", t="ll")
L("llama", "sand", "sounds good but wait — u sure u only need 3 glass? my project a needs 2 glass + 2 sand per run (14 pts) so if u took 5 glass id be screwed",
  q=1, d="a: glass 2, sand 2 = 14", h=1, t="nm",
  n="'sounds good but wait' holds the agreement back: not an acceptance; the question asks about the partner's need")
L("deepseek", "copper", "Partial accept:\n- Copper 10 → you ✅\n- Lithium 4/2 in your favor ❌ → make it 3/3\n\nMy project_b: lithium×2 + silicon×2 → 16. So I also take silicon 6.",
  o="you: copper 10, lithium 3 / me: lithium 3, silicon 6", h=1, d="b: lithium 2, silicon 2 = 16", t="md nm",
  n="partial acceptance with a counter: accept false, reject false; the refused 4/2 is hypothetical")
L("claude", "herbs", "I hear you, and I don’t want us to overdraw again like last round, when we both took 4 mercury. Here’s a thought: you take 3 mercury and all 10 crystals, and I take 3 mercury and 6 herbs. My project_a needs 1 mercury and 2 herbs per run and pays 12, so that’s exactly three runs for me.",
  h=1, o="you: mercury 3, crystals 10 / me: mercury 3, herbs 6", d="a: mercury 1, herbs 2 = 12")

# --- chit-chat --------------------------------------------------------------------------
L("gpt-4o", "wood", "Great chatting with you — this has been a really smooth game.", t="cc")
L("claude", "copper", "I appreciate how clearly you’ve laid things out.", t="cc")
L("gemini", "flour", "Whew, that was a fun round! 😄", t="cc")
L("llama", "seeds", "lol this game is wild", t="cc")
L("qwen", "cotton", "Thank you for your continued cooperation throughout this negotiation.", t="cc")
L("mistral", "sand", "Standing by.", t="cc")
L("deepseek", "herbs", "🙌 Nice teamwork so far.", t="cc")
L("o-series", "kelp", "Round 2 begins. Same projects as before.", t="cc")
L("gpt-4.1", "coal", "Thanks for the quick reply!", t="cc")
L("claude", "ice", "No pressure at all — take whatever time you need.", t="cc")
L("llama", "wood", "haha gg wp", t="cc")
L("gemini", "kelp", "Hi again! 🌊 Let's make this one a good one.", t="cc")
L("qwen", "herbs", "I wish you the best of luck in the remaining rounds.", t="cc")
L("mistral", "coal", "Moving to round 3.", t="cc")
