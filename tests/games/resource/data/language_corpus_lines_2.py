"""Batch 2 of the hand-written utterances (ids after batch 1; see make_language_corpus.py).

Written independently of batch 1 and of any reader, in the same notation and under the same
label rules as ``language_corpus_lines.py``:

L(style, theme, text, o=offer, a=accept, r=reject, d=disclosures, q=question,
  h=hypothetical, t=tags, n=note). The theme is named by its first resource.

The split of this batch is drawn on its own (seeded, stratified per kind), so adding it leaves
the split of batch 1 as it was.
"""

# ruff: noqa: E501
from __future__ import annotations

LINES: list[tuple[str, str, str, dict]] = []


def L(style: str, theme: str, text: str, **kw) -> None:
    LINES.append((style, theme, text, kw))


# --- two-sided offers: proposal verbs, tenses and question forms -----------------------
L("gpt-4o", "copper", "I'm thinking you'd take 8 copper and I'd take 4 lithium. How does that sound?", o="you: copper 8 / me: lithium 4", t="ct",
  n="'How does that sound?' asks agreement with the offer just made: question false")
L("claude", "wood", "My suggestion is this: you take 7 stone and 2 gold, and I take 9 wood and 3 gold. It keeps gold at 5 of 6, so there's a little room for error.", o="you: stone 7, gold 2 / me: wood 9, gold 3")
L("llama", "flour", "how does 6 flour for you, 4 saffron for me sound?", o="you: flour 6 / me: saffron 4")
L("gemini", "seeds", "If it helps, I'll settle for 3 fertilizer and let you have 8 water.", o="you: water 8 / me: fertilizer 3", t="ct ll",
  n="'If it helps' is politeness, not a condition on the split: offer, not hypothetical")
L("mistral", "cotton", "Grab the 6 wool. I'm on silk — 4 of it.", o="you: wool 6 / me: silk 4", t="ct")
L("qwen", "sand", "How does the following sound to you: 7 units of sand for you, and 5 units of steel plus 2 units of glass for me?", o="you: sand 7 / me: steel 5, glass 2")
L("deepseek", "herbs", "Split: crystals 3/3, herbs 8 → you, mercury 4 → me.", o="you: crystals 3, herbs 8 / me: crystals 3, mercury 4",
  n="'3/3' gives each side 3")
L("o-series", "kelp", "Counter: me pearls×3 + coral×5; you kelp×9 + pearls×2.", o="you: kelp 9, pearls 2 / me: pearls 3, coral 5", t="ll")
L("gpt-4.1", "coal", "Here's a split I think holds up: you buy 8 coal, I buy 6 oil and 3 uranium.", o="you: coal 8 / me: oil 6, uranium 3")
L("claude", "ice", "Would it be reasonable for me to take 3 helium and 5 titanium, leaving you 3 helium and all 10 ice?", o="you: helium 3, ice 10 / me: helium 3, titanium 5", t="ll")
L("llama", "copper", "ok waht about this, u get 9 silicon n i get 3 lithium + 2 copper", o="you: silicon 9 / me: lithium 3, copper 2")
L("gemini", "sand", "I'd propose that I take 4 glass and 3 steel, and you take 7 steel and 2 glass.", o="you: steel 7, glass 2 / me: glass 4, steel 3", t="ct ll")
L("qwen", "flour", "May I propose that you acquire 9 units of sugar while I acquire 4 units of saffron and 2 units of flour?", o="you: sugar 9 / me: saffron 4, flour 2",
  n="a proposal phrased as a question: offer, question false")
L("mistral", "seeds", "Water 6 you. Fertilizer 4 me. Seeds untouched.", o="you: water 6 / me: fertilizer 4")
L("deepseek", "cotton", "Let’s do cotton 5 each, and silk 2 for you / 4 for me.", o="you: cotton 5, silk 2 / me: cotton 5, silk 4",
  n="'5 each' gives both sides 5")
L("gpt-4o", "herbs", "What would you say to 6 herbs for you and 5 crystals plus 2 mercury for me?", o="you: herbs 6 / me: crystals 5, mercury 2")
L("claude", "kelp", "I wonder if this might work: you take the coral — say 7 — and I take 4 pearls and 3 kelp.", o="you: coral 7 / me: pearls 4, kelp 3",
  n="'say 7' fixes the listener's number, so that share is labelled")
L("o-series", "coal", "Allocation: oil 10 → you; coal 5 + uranium 3 → me. Uranium headroom: 3.", o="you: oil 10 / me: coal 5, uranium 3")
L("gpt-4.1", "ice", "You'd buy 6 ice and 2 helium; I'd buy 7 titanium and 4 helium. Total helium: 6, exactly the supply.", o="you: ice 6, helium 2 / me: titanium 7, helium 4", t="ct")
L("llama", "wood", "lets do it this way: i grab 4 gold, u grab 9 stone and the last 2 gold", o="you: stone 9, gold 2 / me: gold 4", t="ll")
L("gemini", "copper", "How about we divide it like so: you get 6 copper and 6 silicon, I get 4 lithium and 4 copper?", o="you: copper 6, silicon 6 / me: lithium 4, copper 4")
L("qwen", "seeds", "I would suggest the following division: I obtain 5 units of seeds and 3 units of fertilizer; you obtain 9 units of water and 2 units of fertilizer.", o="you: water 9, fertilizer 2 / me: seeds 5, fertilizer 3", t="ll")
L("mistral", "sand", "Sand 10 for you, glass 4 for me. Steel: 3 for me.", o="you: sand 10 / me: glass 4, steel 3")
L("deepseek", "flour", "Proposal → me: saffron ×3, sugar ×6 | you: flour ×9, saffron ×3", o="you: flour 9, saffron 3 / me: saffron 3, sugar 6", t="ll")
L("claude", "cotton", "Perhaps the simplest thing is for you to take the 8 cotton and for me to take 6 wool and 3 silk — we'd barely overlap at all.", o="you: cotton 8 / me: wool 6, silk 3")
L("gpt-4o", "kelp", "Try this on for size: 4 pearls and 6 coral to you, 2 pearls and 8 kelp to me.", o="you: pearls 4, coral 6 / me: pearls 2, kelp 8")
L("llama", "herbs", "how bout 5 herbs for u n 5 herbs for me, and i also get 3 mercury", o="you: herbs 5 / me: herbs 5, mercury 3")
L("o-series", "ice", "Proposed: you {ice: 7, helium: 1}, me {titanium: 8, helium: 4}.", o="you: ice 7, helium 1 / me: titanium 8, helium 4")
L("gemini", "coal", "I’m thinking I take 6 coal and 2 uranium, and you take 9 oil and 3 uranium. Sound good?", o="you: oil 9, uranium 3 / me: coal 6, uranium 2", t="ct ll")
L("qwen", "wood", "Shall we proceed as follows: you purchase 10 wood, and I purchase 6 stone and 2 gold?", o="you: wood 10 / me: stone 6, gold 2")
L("deepseek", "copper", "Simple plan: lithium 3/3, copper 8 for you, silicon 7 for me.", o="you: lithium 3, copper 8 / me: lithium 3, silicon 7",
  n="'3/3' gives each side 3")
L("mistral", "flour", "Counter — I take 4 saffron. You take 8 sugar and 2 saffron.", o="you: sugar 8, saffron 2 / me: saffron 4", t="ll")
L("gpt-4.1", "cotton", "Let me propose something concrete: you take 4 silk and 5 wool; I take 2 silk and 9 cotton. Does that cover your main project?", o="you: silk 4, wool 5 / me: silk 2, cotton 9", q=1,
  n="asks whether the split covers the partner's project, information beyond agreement: question true")
L("claude", "seeds", "What if you took 7 seeds and 2 fertilizer, and I took 6 water and 4 fertilizer? My guess is that leaves us both with something useful.", o="you: seeds 7, fertilizer 2 / me: water 6, fertilizer 4",
  n="'What if you took ..., and I took ...?' proposes a split: offer, not hypothetical")
L("llama", "sand", "u take 6 steel, ill take 4 steel + 3 glass. ez", o="you: steel 6 / me: steel 4, glass 3",
  n="'ill' without an apostrophe: no contraction tag")
L("gemini", "kelp", "Let's say 5 kelp and 3 pearls for you, 6 coral and 3 pearls for me — even on pearls, which feels fair.", o="you: kelp 5, pearls 3 / me: coral 6, pearls 3")
L("qwen", "herbs", "It would be optimal if you purchase 8 units of crystals and I purchase 5 units of herbs and 3 units of mercury.", o="you: crystals 8 / me: herbs 5, mercury 3",
  n="'it would be optimal if you purchase ...' recommends the split: offer, not hypothetical")
L("o-series", "wood", "Revised: wood 4/4, stone 6 → you, gold 3 → me.", o="you: wood 4, stone 6 / me: wood 4, gold 3",
  n="'4/4' gives each side 4")
L("deepseek", "coal", "Let’s keep it clean: you — coal 7, oil 2; me — uranium 4, oil 5.", o="you: coal 7, oil 2 / me: uranium 4, oil 5")
L("gpt-4o", "ice", "Any chance you'd go for 5 titanium and 2 helium, with me on 6 ice and 4 helium?", o="you: titanium 5, helium 2 / me: ice 6, helium 4", t="ct")
L("mistral", "copper", "Proposal stands: copper 10 you, lithium 5 me.", o="you: copper 10 / me: lithium 5",
  n="a standing proposal restated as the plan is the offer")
L("claude", "flour", "Here's where I've landed after thinking it over: I'll take 5 saffron, and you'll have 10 flour and 1 saffron. I know that's lopsided on saffron, but flour seems to be what you're after.", o="you: flour 10, saffron 1 / me: saffron 5", t="ct ll")
L("gemini", "cotton", "Option I'd go with: 8 wool for me, 3 silk for you, 6 cotton for you.", o="you: silk 3, cotton 6 / me: wool 8", t="ct ll")
L("llama", "kelp", "what if i take 5 coral and 1 pearl and you get the other 5 pearls", o="you: pearls 5 / me: coral 5, pearls 1", t="ll",
  n="'what if i take' proposes; 'the other 5 pearls' writes the listener's number")
L("qwen", "ice", "I kindly propose the following: you take 9 units of titanium; I take 6 units of ice and 3 units of helium.", o="you: titanium 9 / me: ice 6, helium 3")
L("gpt-4.1", "herbs", "Let’s go with a 4/2 mercury split in your favor — 4 for you, 2 for me — and I’ll take 7 crystals.", o="you: mercury 4 / me: mercury 2, crystals 7", t="ct")
L("deepseek", "sand", "My proposal: sand → you (8), steel → me (7), glass → me (3).", o="you: sand 8 / me: steel 7, glass 3")
L("claude", "coal", "Could we try it this way? You take 4 uranium and 4 coal, and I take 2 uranium and 8 oil.", o="you: uranium 4, coal 4 / me: uranium 2, oil 8",
  n="'Could we try it this way?' introduces the offer: question false")
L("o-series", "seeds", "Feasible split: water 10 → you; seeds 6 + fertilizer 3 → me. No resource exceeds supply.", o="you: water 10 / me: seeds 6, fertilizer 3")
L("gpt-4o", "wood", "Let's make it 5 gold for me and 1 gold plus 10 stone for you.", o="you: gold 1, stone 10 / me: gold 5", t="ll")
L("mistral", "kelp", "Pearls: 2 you, 4 me. Kelp: 10 you.", o="you: pearls 2, kelp 10 / me: pearls 4")
L("gemini", "herbs", "Could you live with 3 mercury and 8 herbs, if I take 3 mercury and 6 crystals?", o="you: mercury 3, herbs 8 / me: mercury 3, crystals 6",
  n="'Could you live with X, if I take Y?' proposes a split: offer, not hypothetical, question false")
L("llama", "coal", "yo how about 5 uranium for me n 1 for you, plus you keep all 10 coal", o="you: uranium 1, coal 10 / me: uranium 5", t="ll")
L("qwen", "cotton", "Would you be agreeable to purchasing 7 units of cotton, while I purchase 4 units of silk and 4 units of wool?", o="you: cotton 7 / me: silk 4, wool 4")
L("claude", "sand", "What I'd propose — and tell me if this clashes with anything — is 3 glass each, with you taking 9 sand and me taking 8 steel.", o="you: glass 3, sand 9 / me: glass 3, steel 8", t="ct",
  n="'3 glass each' gives both sides 3; 'tell me if this clashes' asks only for a view of the offer: question false")
L("gpt-4.1", "flour", "Concretely: you 7 sugar + 2 saffron, me 5 flour + 4 saffron. That's 6 saffron in total — right at supply, so neither of us can deviate.", o="you: sugar 7, saffron 2 / me: flour 5, saffron 4")
L("deepseek", "ice", "Titanium: 5 you / 5 me. Helium: 2 you / 3 me. Ice: nobody.", o="you: titanium 5, helium 2 / me: titanium 5, helium 3",
  n="'Ice: nobody' is zero ice for both: left out")
L("o-series", "copper", "Offer: {you: copper 7, silicon 3; me: lithium 4}.", o="you: copper 7, silicon 3 / me: lithium 4")
L("llama", "seeds", "you can have 10 seeds and 10 water honestly, i just want 5 fertilizer", o="you: seeds 10, water 10 / me: fertilizer 5",
  n="'i just want 5 fertilizer' is the speaker's share of the split it proposes")
L("gemini", "wood", "Here's a thought: I'll buy 3 gold and 6 wood, you'll buy 3 gold and 8 stone. We'd each get a fair slice of the scarce stuff.", o="you: gold 3, stone 8 / me: gold 3, wood 6", t="ct ll")
L("mistral", "herbs", "Mercury split 3/3. Crystals 8 to you. Herbs 6 to me.", o="you: mercury 3, crystals 8 / me: mercury 3, herbs 6",
  n="'split 3/3' gives each side 3")
L("qwen", "kelp", "Please consider this allocation: you receive 6 units of coral and 2 units of pearls, and I receive 4 units of pearls and 5 units of kelp.", o="you: coral 6, pearls 2 / me: pearls 4, kelp 5")
L("gpt-4o", "coal", "I'd like to suggest 7 oil for you and 4 coal plus 3 uranium for me. Let me know if you'd want to shift any of that.", o="you: oil 7 / me: coal 4, uranium 3", t="ct",
  n="'Let me know if ...' after an offer asks only for a view of it: question false")
L("claude", "copper", "One more idea, in case the last one didn't land: you take 5 lithium and 4 silicon, and I take 1 lithium and 9 copper.", o="you: lithium 5, silicon 4 / me: lithium 1, copper 9")
L("deepseek", "wood", "Final answer from my side — you: wood 8, gold 2; me: stone 9, gold 4.", o="you: wood 8, gold 2 / me: stone 9, gold 4")
L("gemini", "flour", "I'd propose we each get 3 saffron, with you taking 8 flour and me taking 7 sugar.", o="you: saffron 3, flour 8 / me: saffron 3, sugar 7", t="ct",
  n="'we each get 3' gives both shares")
L("llama", "cotton", "hows 7 cotton + 2 silk for you and 4 silk + 5 wool for me", o="you: cotton 7, silk 2 / me: silk 4, wool 5",
  n="a question without a question mark that proposes a split: offer")
L("o-series", "sand", "Plan B: you steel×6, glass×2; me sand×9, glass×3. Preferred over plan A.", o="you: steel 6, glass 2 / me: sand 9, glass 3")
L("gpt-4.1", "seeds", "You'd get 6 seeds and 3 fertilizer, and I'd get 8 water and 3 fertilizer — an even fertilizer split with no overlap elsewhere.", o="you: seeds 6, fertilizer 3 / me: water 8, fertilizer 3", t="ct")
L("mistral", "ice", "Me: helium 4, ice 5. You: titanium 10, helium 2. Final.", o="you: titanium 10, helium 2 / me: helium 4, ice 5", t="ll")
L("claude", "kelp", "I’d suggest 6\u00a0coral for you and 4\u00a0pearls for me — that’s all I really need.", o="you: coral 6 / me: pearls 4", t="ct")
L("gpt-4o", "herbs", "Proposal – herbs: 9\u202ffor you; mercury: 4\u202ffor me; crystals: 5\u202ffor me.", o="you: herbs 9 / me: mercury 4, crystals 5")
L("gemini", "ice", "“Fair and simple” is my goal here: 5 ice each, and I’ll take 4 helium.", o="you: ice 5 / me: ice 5, helium 4", t="ct",
  n="'5 ice each' gives both sides 5")
L("llama", "flour", "i think teh best split is u take 9 flour n i take 5 saffron", o="you: flour 9 / me: saffron 5")
L("llama", "ice", "ok my propsal: 7 ice for u, 4 helium for me", o="you: ice 7 / me: helium 4")
L("mistral", "coal", "definately 6 coal for you then, 4 uranium for me", o="you: coal 6 / me: uranium 4")
L("gemini", "kelp", "I'm thinking you'd take 9 kelp and I'd grab 5 coral + 2 pearls?", o="you: kelp 9 / me: coral 5, pearls 2", t="ct")
L("gpt-4o", "sand", "I was thinking something like: you get 9 steel, I get 6 sand and 2 glass. Open to tweaks.", o="you: steel 9 / me: sand 6, glass 2",
  n="'I was thinking' in the past tense still puts the split forward now: offer, not hypothetical")
L("claude", "seeds", "What I had in mind was you taking 7 water while I take 4 fertilizer.", o="you: water 7 / me: fertilizer 4",
  n="'What I had in mind was' states the speaker's proposal: offer, not a report")
L("deepseek", "coal", "Let me re-propose: uranium 2 → you, uranium 4 → me, oil 8 → you.", o="you: uranium 2, oil 8 / me: uranium 4")
L("gpt-4.1", "sand", "Here’s a version that might suit us both — I’d take 6 sand and 4 glass, you’d take 10 steel and 2 glass.", o="you: steel 10, glass 2 / me: sand 6, glass 4", t="ct ll")
L("qwen", "copper", "In summary, my proposal remains: you purchase 10 units of copper, and I purchase 5 units of lithium.", o="you: copper 10 / me: lithium 5")
L("claude", "herbs", "Just to restate my offer since it may have gotten lost: 4 mercury for you, 2 for me, and I'll take 8 herbs.", o="you: mercury 4 / me: mercury 2, herbs 8", t="ct",
  n="the speaker restates its own standing offer: offer, not hypothetical")
L("gemini", "cotton", "I'm going to suggest 6 cotton for you and 8 wool for me.", o="you: cotton 6 / me: wool 8", t="ct")
L("o-series", "wood", "Proposing: stone×8 → you, gold×4 → me.", o="you: stone 8 / me: gold 4")

# --- offers with number words ------------------------------------------------------------
L("claude", "copper", "Would you be comfortable with seven copper for you and three lithium for me?", o="you: copper 7 / me: lithium 3", t="nw")
L("gpt-4o", "wood", "I'd propose you take nine wood while I take five stone and two gold.", o="you: wood 9 / me: stone 5, gold 2", t="nw ct")
L("llama", "flour", "u take eight sugar, i take four saffron, sound ok?", o="you: sugar 8 / me: saffron 4", t="nw")
L("gemini", "seeds", "Let's do six water for me and seven seeds plus two fertilizer for you.", o="you: seeds 7, fertilizer 2 / me: water 6", t="nw ll")
L("qwen", "cotton", "I would like to propose that you purchase three units of silk and I purchase three units of silk and eight units of wool.", o="you: silk 3 / me: silk 3, wool 8", t="nw")
L("mistral", "sand", "Ten sand to you. Four glass to me.", o="you: sand 10 / me: glass 4", t="nw")
L("deepseek", "herbs", "I’ll take three mercury and six herbs; you’re welcome to all ten crystals and the other three mercury.", o="you: crystals 10, mercury 3 / me: mercury 3, herbs 6", t="nw ct ll")
L("o-series", "kelp", "Proposal: kelp eight → you, pearls five → me.", o="you: kelp 8 / me: pearls 5", t="nw")
L("gpt-4.1", "coal", "How about four uranium for me and two uranium plus nine coal for you?", o="you: uranium 2, coal 9 / me: uranium 4", t="nw ll")
L("claude", "ice", "I'm hoping we can land on something like six titanium for you and three helium and five ice for me.", o="you: titanium 6 / me: helium 3, ice 5", t="nw ct",
  n="'something like' softens the proposal, but the numbers are concrete: offer")
L("llama", "wood", "ok fine, two gold for me, four gold for you, and you keep the stone", o="you: gold 4 / me: gold 2", t="nw ll nm",
  n="'ok fine' opens a counter, not an acceptance; 'keep the stone' names no units: not in the share")
L("gemini", "copper", "My suggestion: you buy ten silicon and I buy five lithium.", o="you: silicon 10 / me: lithium 5", t="nw")
L("qwen", "flour", "Would it be acceptable if you took two units of saffron and nine units of flour, while I take four units of saffron?", o="you: saffron 2, flour 9 / me: saffron 4", t="nw",
  n="'Would it be acceptable if you took ...' proposes a split: offer, not hypothetical")
L("mistral", "coal", "Oil: seven for me. Coal: ten for you. Uranium: three each.", o="you: coal 10, uranium 3 / me: oil 7, uranium 3", t="nw ll")
L("deepseek", "seeds", "Let’s do: fertilizer — four for you, two for me; water — eight for me.", o="you: fertilizer 4 / me: fertilizer 2, water 8", t="nw")
L("gpt-4o", "kelp", "What about three pearls each, with you on coral (six) and me on kelp (nine)?", o="you: pearls 3, coral 6 / me: pearls 3, kelp 9", t="nw")
L("claude", "herbs", "I could manage with just two mercury if you're happy taking the other four along with eight crystals.", o="you: mercury 4, crystals 8 / me: mercury 2", t="nw ct ll",
  n="'I could manage with just two mercury if you're happy taking ...' proposes a split: offer, not hypothetical")
L("o-series", "cotton", "Split: wool six/four in my favor, silk three → you.", o="you: wool 4, silk 3 / me: wool 6", t="nw",
  n="'six/four in my favor' gives the speaker the six")
L("llama", "ice", "i'll grab five helium, you grab one helium and ten titanium", o="you: helium 1, titanium 10 / me: helium 5", t="nw ct ll")
L("gemini", "sand", "How does five steel for each of us sound, with three glass for me on top?", o="you: steel 5 / me: steel 5, glass 3", t="nw")
L("gpt-4.1", "wood", "Eight stone for you and four gold for me — that’s my proposal.", o="you: stone 8 / me: gold 4", t="nw")
L("qwen", "ice", "I propose: you — seven units of ice; me — nine units of titanium and two units of helium.", o="you: ice 7 / me: titanium 9, helium 2", t="nw")

# --- offers in markdown: tables, bullets, bold -------------------------------------------
L("gpt-4o", "copper", "**Proposed split**\n\n| | You | Me |\n|---|---|---|\n| copper | 7 | 0 |\n| silicon | 0 | 6 |\n| lithium | 2 | 4 |", o="you: copper 7, lithium 2 / me: silicon 6, lithium 4", t="md")
L("claude", "seeds", "Here's how I'd lay it out:\n\n- **You:** 8 water, 2 fertilizer\n- **Me:** 6 seeds, 4 fertilizer\n\nThat uses all 6 fertilizer, so neither of us should buy more than this.", o="you: water 8, fertilizer 2 / me: seeds 6, fertilizer 4", t="md ct")
L("gemini", "cotton", "### My offer\n* Me → 7 wool, 3 silk\n* You → 9 cotton, 3 silk", o="you: cotton 9, silk 3 / me: wool 7, silk 3", t="md ll")
L("deepseek", "flour", "| resource | you | me |\n|---|---|---|\n| flour | 8 | – |\n| sugar | – | 6 |\n| saffron | 1 | 5 |", o="you: flour 8, saffron 1 / me: sugar 6, saffron 5", t="md",
  n="a dash in a table cell is zero: left out")
L("qwen", "herbs", "Proposal:\n1. Crystals: 9 units for you.\n2. Mercury: 4 units for me, 2 units for you.\n3. Herbs: 5 units for me.", o="you: crystals 9, mercury 2 / me: mercury 4, herbs 5", t="md")
L("o-series", "sand", "- sand: you 10\n- steel: me 6\n- glass: me 3, you 3", o="you: sand 10, glass 3 / me: steel 6, glass 3", t="md")
L("gpt-4.1", "kelp", "**Round 2 plan**\n1. You buy **5 kelp** and **3 pearls**\n2. I buy **7 coral** and **3 pearls**\n\nPearls total: 6/6.", o="you: kelp 5, pearls 3 / me: coral 7, pearls 3", t="md",
  n="'6/6' is demand over supply, not a split")
L("llama", "coal", "ok here's the deal:\n• u: 9 oil\n• me: 6 coal + 2 uranium", o="you: oil 9 / me: coal 6, uranium 2", t="md",
  n="'here's the deal' introduces a proposal; it accepts nothing")
L("gemini", "ice", "> **Suggested allocation**\n> - Titanium: 7 for you\n> - Helium: 4 for me, 2 for you\n> - Ice: 5 for me", o="you: titanium 7, helium 2 / me: helium 4, ice 5", t="md")
L("mistral", "wood", "**You:** 10 wood.\n**Me:** 4 gold, 2 stone.", o="you: wood 10 / me: gold 4, stone 2", t="md")
L("claude", "copper", "I've thought about this a bit more. My proposal:\n\n1. **Lithium** — 2 for you, 4 for me\n2. **Copper** — all 10 for you\n3. **Silicon** — 5 for me\n\nIf that's off for your projects, tell me which line to change.", o="you: lithium 2, copper 10 / me: lithium 4, silicon 5", t="md")
L("deepseek", "seeds", "**Allocation v3**\n```\nyou: water 7, seeds 3\nme:  fertilizer 5, seeds 5\n```", o="you: water 7, seeds 3 / me: fertilizer 5, seeds 5", t="md")
L("gpt-4o", "sand", "Quick table so we're on the same page:\n\n| | Steel | Glass | Sand |\n|---|---|---|---|\n| You | 8 | 2 | 0 |\n| Me | 0 | 4 | 7 |", o="you: steel 8, glass 2 / me: glass 4, sand 7", t="md")
L("qwen", "wood", "**Proposal for Round 3:**\n- Party A (yourself): 6 units of stone, 3 units of gold\n- Party B (myself): 8 units of wood, 3 units of gold", o="you: stone 6, gold 3 / me: wood 8, gold 3", t="md")
L("o-series", "herbs", "## Split\n- me: herbs×7, mercury×2\n- you: crystals×6, mercury×4", o="you: crystals 6, mercury 4 / me: herbs 7, mercury 2", t="md ll")
L("gemini", "coal", "* **Coal:** 8 → you\n* **Uranium:** 3 → you, 3 → me\n* **Oil:** 6 → me", o="you: coal 8, uranium 3 / me: uranium 3, oil 6", t="md")

# --- one-sided offers (claims) and imperatives ------------------------------------------
L("gpt-4o", "copper", "If it helps, I'll settle for 3 lithium and nothing else.", o="me: lithium 3", t="ct")
L("claude", "wood", "I'm happy to take just 2 gold this round.", o="me: gold 2", t="ct")
L("llama", "flour", "grab the 6 sugar, its yours", o="you: sugar 6")
L("gemini", "seeds", "You should go ahead and take all 10 seeds.", o="you: seeds 10")
L("mistral", "cotton", "Grab the 6 wool.", o="you: wool 6")
L("qwen", "sand", "I intend to acquire precisely 5 units of steel.", o="me: steel 5")
L("deepseek", "herbs", "Locking my order: mercury ×3.", o="me: mercury 3", t="nm",
  n="'Locking my order' commits the speaker's own share; it accepts nothing")
L("o-series", "kelp", "My buy: coral×7. Nothing else.", o="me: coral 7")
L("gpt-4.1", "coal", "I'll be buying 6 oil, so you can plan around that.", o="me: oil 6", t="ct")
L("claude", "ice", "I think I'd be best off with 4 helium; the rest of the pool is yours to plan with.", o="me: helium 4", t="ct",
  n="'the rest of the pool' names no units: the listener's share is null")
L("llama", "copper", "just gonna take 7 silicon this time", o="me: silicon 7")
L("gemini", "kelp", "Take the 8 kelp — I won't touch it.", o="you: kelp 8",
  n="'I won't touch it' refuses no concrete amount: not hypothetical")
L("qwen", "coal", "You are welcome to purchase 9 units of coal.", o="you: coal 9")
L("mistral", "flour", "Saffron 4. That's my ask.", o="me: saffron 4")
L("deepseek", "wood", "I’ll go with 5 stone and leave the gold entirely to you.", o="me: stone 5", t="ct",
  n="'leave the gold entirely to you' names no units: the listener's share is null")
L("gpt-4o", "herbs", "You could take 6 crystals, which I don't need.", o="you: crystals 6")
L("claude", "sand", "I'd only ask for 3 glass.", o="me: glass 3", t="ct")
L("o-series", "seeds", "Commit: water×8 for me.", o="me: water 8")
L("llama", "ice", "all 10 ice r yours dude", o="you: ice 10")
L("gemini", "cotton", "I'm planning on 4 silk and I'll leave the cotton to you.", o="me: silk 4", t="ct")
L("qwen", "kelp", "My purchase will consist of 3 units of pearls and 4 units of coral.", o="me: pearls 3, coral 4")
L("gpt-4.1", "copper", "You take 4 lithium; I'll figure out the rest.", o="you: lithium 4",
  n="'I'll figure out the rest' names no share for the speaker: null")
L("deepseek", "coal", "I’m taking 0 oil and 4 uranium.", o="me: uranium 4", t="ct",
  n="zero units are left out of a share")
L("mistral", "herbs", "You: herbs, all 10.", o="you: herbs 10")
L("claude", "flour", "If it makes things easier, I can get by on 2 saffron this round.", o="me: saffron 2",
  n="'if it makes things easier' is politeness, not a condition: the speaker's share is offered")
L("llama", "sand", "ill just do 6 sand n call it a day", o="me: sand 6")
L("gemini", "wood", "Take the 10 wood.", o="you: wood 10")
L("o-series", "ice", "Reserve helium×3 for me.", o="me: helium 3")

# --- long turns: the offer comes after a disclosure or an explanation -------------------
L("claude", "copper", "Thanks for laying out your side so clearly. I'll return the favour: my project_a needs 2 lithium and 1 silicon per run and pays 18, and project_c needs 3 copper per run for 7. Lithium is the only thing I'm really worried about. With that in mind, I'm thinking you'd take 9 copper and 2 lithium, and I'd take 4 lithium and 2 silicon — two runs of project_a for me, and you keep most of the copper.",
  d="a: lithium 2, silicon 1 = 18; c: copper 3 = 7", o="you: copper 9, lithium 2 / me: lithium 4, silicon 2", t="ct")
L("gpt-4o", "wood", "Let me explain where I'm coming from. Last round we overdrew on gold because we both bought 4. This time I'd rather be careful. My project_b needs 1 gold and 3 stone per run (reward 13). So my suggestion is: I take 6 stone and 2 gold, you take 4 gold and 10 wood. That's exactly 6 gold between us.",
  h=1, d="b: gold 1, stone 3 = 13", o="you: gold 4, wood 10 / me: stone 6, gold 2", t="ll",
  n="the reported purchases of last round are hypothetical; the suggestion is the offer")
L("gemini", "flour", "Okay! So, I've been looking at the numbers. My project_a requires 2 flour and 2 sugar per run and gives 9, while project_b requires 1 saffron and 1 sugar for 12. Saffron is expensive, so I only want a little. How does 5 sugar and 2 saffron for me, 8 flour and 4 saffron for you sound?",
  d="a: flour 2, sugar 2 = 9; b: saffron 1, sugar 1 = 12", o="you: flour 8, saffron 4 / me: sugar 5, saffron 2", t="ll",
  n="a proposal phrased as a question: offer, question false")
L("llama", "seeds", "ok so heres the thing. my project b needs 3 water + 1 fertilizer each run and its worth 14, thats basically my whole game. i dont care about seeds at all. so like, you take 10 seeds and 2 fertilizer, ill take 6 water and 2 fertilizer?",
  d="b: water 3, fertilizer 1 = 14", o="you: seeds 10, fertilizer 2 / me: water 6, fertilizer 2")
L("qwen", "cotton", "Thank you for sharing your requirements. In the interest of transparency, I will share mine: Project A requires 3 units of wool and 1 unit of silk per run, with a reward of 16. Project C requires 4 units of cotton per run, with a reward of 8. Based on this, I propose that I purchase 6 units of wool and 2 units of silk, and you purchase 10 units of cotton and 4 units of silk.",
  d="a: wool 3, silk 1 = 16; c: cotton 4 = 8", o="you: cotton 10, silk 4 / me: wool 6, silk 2", t="ll")
L("mistral", "sand", "Overdraw last round cost us both. My project_c: glass 2 + steel 1, 15/run. Proposal: me glass 4 + steel 2, you sand 10 + steel 8.",
  d="c: glass 2, steel 1 = 15", o="you: sand 10, steel 8 / me: glass 4, steel 2", t="ll",
  n="the past overdraw names no allocation: hypothetical false")
L("deepseek", "herbs", "Let me reason through it.\n- My project_b: 2 herbs + 1 mercury → 11/run.\n- My project_c: 4 crystals → 9/run.\n- Mercury is capped at 6.\n\nSo: I take 6 herbs and 3 mercury (3 runs of project_b), and you get 3 mercury and all 10 crystals.",
  d="b: herbs 2, mercury 1 = 11; c: crystals 4 = 9", o="you: mercury 3, crystals 10 / me: herbs 6, mercury 3", t="md ll",
  n="'Mercury is capped at 6' is the supply, not a cap on a share")
L("o-series", "kelp", "Analysis: your project_a needs coral×2; mine (project_b) needs pearls×2 + kelp×1 → 17. No overlap except kelp. Proposal: you coral×8, kelp×4; me pearls×4, kelp×2.",
  d="b: pearls 2, kelp 1 = 17", o="you: coral 8, kelp 4 / me: pearls 4, kelp 2",
  n="the partner's project_a is not a disclosure")
L("gpt-4.1", "coal", "I want to be upfront about why I keep pushing for uranium. My project_a needs 2 uranium and 2 coal per run and pays 21 — by far my best option. Anything else I have is worth under 8. Given that, could you take 10 oil and 2 uranium, while I take 4 uranium and 4 coal?",
  d="a: uranium 2, coal 2 = 21", o="you: oil 10, uranium 2 / me: uranium 4, coal 4",
  n="'worth under 8' bounds the other projects without requirements: no disclosure; the closing proposal is phrased as a question: question false")
L("claude", "ice", "I've been thinking about the overdraw risk on helium. Since there are only 6 units, we really can't both go for 4. My project_c needs 2 helium and 1 titanium per run and pays 19, so two runs would be ideal for me. Could you work with 2 helium and 9 ice, while I take 4 helium and 2 titanium?",
  h=1, d="c: helium 2, titanium 1 = 19", o="you: helium 2, ice 9 / me: helium 4, titanium 2",
  n="'we can't both go for 4' names a negated allocation: hypothetical")
L("llama", "wood", "sorry for the late reply lol. so my project a is 2 stone + 2 wood per run for 10 pts and project c is 3 gold for 18. gold is what i really want. u good with 3 gold for me and 3 gold for u + all 10 stone?",
  d="a: stone 2, wood 2 = 10; c: gold 3 = 18", o="you: gold 3, stone 10 / me: gold 3", t="ll",
  n="'u good with ...?' is a proposal phrased as a question: offer, question false")
L("gemini", "copper", "Thanks! That's really helpful context. On my side, project_b needs 4 silicon per run and pays 10, and I don't need any lithium at all. So here's a split that should work well for both of us: 8 silicon for me, and you take all 6 lithium plus 10 copper.",
  d="b: silicon 4 = 10", o="you: lithium 6, copper 10 / me: silicon 8", t="ll")
L("qwen", "kelp", "I appreciate your patience. After careful consideration, I believe the following allocation would be mutually beneficial. My Project B requires 2 units of coral and 1 unit of pearls per run, yielding 12 points. Therefore, I suggest that I purchase 6 units of coral and 3 units of pearls, and you purchase 3 units of pearls and 10 units of kelp.",
  d="b: coral 2, pearls 1 = 12", o="you: pearls 3, kelp 10 / me: coral 6, pearls 3", t="ll")
L("gpt-4o", "herbs", "I see — so mercury matters to both of us. For context, my project_a takes 1 mercury and 3 herbs per run and pays 14, and I can't do much without it. Since you said your project needs 2 mercury per run, what if I take 3 mercury and 9 herbs, and you take 3 mercury and 8 crystals?",
  d="a: mercury 1, herbs 3 = 14", o="you: mercury 3, crystals 8 / me: mercury 3, herbs 9", t="ll",
  n="the partner's stated need is neither a disclosure nor an allocation")
L("deepseek", "flour", "Recap:\n1. Round 1 — we split saffron 3/3, both scored.\n2. My project_c needs saffron×2 per run → 20.\n\nThis round I'd suggest: me saffron 4 + sugar 2, you saffron 2 + flour 9.",
  h=1, d="c: saffron 2 = 20", o="you: saffron 2, flour 9 / me: saffron 4, sugar 2", t="md ct ll",
  n="the reported 3/3 split of round 1 is hypothetical; the suggestion is the offer")
L("mistral", "seeds", "Project_a: seeds 4 → 9 pts. Project_b: fertilizer 2 + water 1 → 13 pts. I go for project_b twice. So: fertilizer 4 + water 2 me; seeds 10 + water 8 you.",
  d="a: seeds 4 = 9; b: fertilizer 2, water 1 = 13", o="you: seeds 10, water 8 / me: fertilizer 4, water 2", t="ll")
L("claude", "cotton", "I really appreciate you sharing that, and I want to make sure we avoid stepping on each other. I don't have much use for cotton — my projects are built around wool and silk. Project_b in particular needs 2 wool and 1 silk per run and pays 15. If it helps, I'll settle for 6 wool and 3 silk, and you're welcome to all 10 cotton and the other 3 silk.",
  d="b: wool 2, silk 1 = 15", o="you: cotton 10, silk 3 / me: wool 6, silk 3", t="ct ll")
L("gemini", "sand", "Good news — I think our needs barely overlap! My project_a is 3 sand per run (reward 8) and project_c is 1 glass + 2 sand per run (reward 13). You mentioned steel is your focus. So: you take all 10 steel and 3 glass, I take 9 sand and 3 glass?",
  d="a: sand 3 = 8; c: glass 1, sand 2 = 13", o="you: steel 10, glass 3 / me: sand 9, glass 3",
  n="a proposal ending with '?' is an offer, not a question")
L("gpt-4.1", "ice", "Let me share the numbers behind my ask. Project_b needs 3 titanium per run and pays 12; project_c needs 2 helium and 2 ice per run and pays 16. I can't afford both this round, so I'll focus on project_c. Would you take 10 titanium and 2 helium, with me taking 4 helium and 4 ice?",
  d="b: titanium 3 = 12; c: helium 2, ice 2 = 16", o="you: titanium 10, helium 2 / me: helium 4, ice 4")
L("llama", "coal", "real quick — i only need uranium for project c (2 uranium a run, 17 pts). i literally dont touch oil. so u take 10 oil + the other 2 uranium, i take 4 uranium",
  d="c: uranium 2 = 17", o="you: oil 10, uranium 2 / me: uranium 4")
L("o-series", "flour", "Constraint check: saffron supply 6. My project_a = saffron×2 + flour×1 → 16/run. Two runs → saffron×4, flour×2. Proposal: me saffron×4 + flour×2; you saffron×2 + sugar×10.",
  d="a: saffron 2, flour 1 = 16", o="you: saffron 2, sugar 10 / me: saffron 4, flour 2", t="ll",
  n="'Two runs → saffron×4, flour×2' is arithmetic on a requirement: no second disclosure and no separate allocation")
L("qwen", "wood", "Thank you for your message. I understand that gold is important for you. However, my Project C also requires 2 units of gold per run, yielding 15 points, and my Project A requires 3 units of stone per run, yielding 9 points. To be fair, I propose that we each purchase 3 units of gold, with you also purchasing 8 units of wood and me purchasing 6 units of stone.",
  d="c: gold 2 = 15; a: stone 3 = 9", o="you: gold 3, wood 8 / me: gold 3, stone 6",
  n="'we each purchase 3 units of gold' gives both shares")
L("claude", "kelp", "I think I misread your last message — sorry about that. Let me reset: my main project is project_c, which needs 3 pearls per run and pays 20. I don't need coral or kelp at all. So my honest ask is just 3 pearls, and you could take the remaining 3 pearls along with as much coral and kelp as you like.",
  d="c: pearls 3 = 20", o="you: pearls 3 / me: pearls 3", t="ll",
  n="'as much coral and kelp as you like' names no units: not in the share")
L("deepseek", "copper", "Numbers first:\n- project_a (mine): copper×3 + lithium×1 → 12\n- project_b (mine): silicon×4 → 8\n\nI'd run project_a twice. Hence: **me 6 copper + 2 lithium, you 4 lithium + 10 silicon**.",
  d="a: copper 3, lithium 1 = 12; b: silicon 4 = 8", o="you: lithium 4, silicon 10 / me: copper 6, lithium 2", t="md ll")
L("gpt-4o", "seeds", "I hear you on the fertilizer. I'll be honest: my project_c requires 2 fertilizer and 2 seeds per run and pays 15, so it's pretty central for me. But I don't want us to overdraw again. If you take 3 fertilizer, I'll take 3 fertilizer and 6 seeds, and you can have all the water.",
  d="c: fertilizer 2, seeds 2 = 15", o="you: fertilizer 3 / me: fertilizer 3, seeds 6", t="ct",
  n="'If you take X, I'll take Y' is an offer; 'all the water' names no units")
L("gemini", "herbs", "Thanks for the details! Since your project_b is all about crystals, I'll happily stay away from them. For reference, my project_a needs 2 mercury and 1 herbs per run and rewards 17. So I'd like 4 mercury and 2 herbs — you can take the other 2 mercury and all 10 crystals.",
  d="a: mercury 2, herbs 1 = 17", o="you: mercury 2, crystals 10 / me: mercury 4, herbs 2", t="ct ll")

# --- acceptances: plain --------------------------------------------------------------------
L("gpt-4o", "copper", "Works for me — submitting now.", a=1)
L("claude", "wood", "Alright, let's lock it in and move on.", a=1)
L("gemini", "flour", "I'm on board. Let's do it exactly as you laid out.", a=1)
L("llama", "seeds", "Happy to go with that — nice work putting it together!", a=1)
L("mistral", "cotton", "Yep, count me in on that split.", a=1)
L("o-series", "sand", "Perfect, done.", a=1)
L("deepseek", "herbs", "🤝 Deal, partner.", a=1)
L("qwen", "kelp", "That's perfect. Deal!", a=1)
L("qwen", "coal", "I accept the proposed allocation in full.", a=1)
L("gpt-4.1", "ice", "Agreed on every line.", a=1)
L("claude", "copper", "Yes, that works. I'll submit my side.", a=1)
L("gemini", "wood", "Let's go with it — thanks for being flexible.", a=1)
L("llama", "flour", "Sounds fair to me, let's do it!", a=1)
L("o-series", "seeds", "Accepted as stated.", a=1)
L("mistral", "cotton", "Ok deal, no changes from me.", a=1)
L("gpt-4o", "sand", "Great, that's a deal then.", a=1)
L("deepseek", "herbs", "I'm in. Good split.", a=1)
L("gpt-4.1", "kelp", "Your plan works — agreed.", a=1)
L("qwen", "coal", "Excellent proposal. I accept.", a=1)
L("llama", "ice", "That's totally fine by me 😊", a=1)
L("claude", "wood", "Perfect — exactly what I was hoping for. Let's go.", a=1)
L("gemini", "flour", "Oh yes, please — let's run with that.", a=1)
L("llama", "seeds", "sure deal", a=1)
L("mistral", "cotton", "Fine. Deal.", a=1)
L("gpt-4o", "sand", "I'm good with this split — locking in.", a=1)
L("deepseek", "herbs", "Agreed. I'll submit exactly that.", a=1)
L("qwen", "kelp", "That's a fair division, and I accept it.", a=1)
L("gemini", "coal", "Works well for both of us. Agreed!", a=1)
L("o-series", "ice", "Yes. Let's finalize.", a=1)
L("llama", "copper", "Ok, I'm on board with your split.", a=1)
L("gpt-4.1", "wood", "Deal — looking forward to a good round.", a=1)
L("claude", "flour", "I’m happy with that. Let’s go ahead.", a=1)
L("gemini", "seeds", "Great minds think alike — deal!", a=1)
L("gpt-4o", "cotton", "Alright, you've convinced me. Deal.", a=1)
L("o-series", "sand", "That works; I'm locking my purchase now.", a=1)
L("qwen", "herbs", "I am pleased to accept your proposal.", a=1)
L("llama", "kelp", "lol yes, deal", a=1)
L("mistral", "coal", "Agreed 👍 Submitting my half.", a=1)
L("claude", "ice", "Perfect, that settles it.", a=1)
L("gpt-4.1", "copper", "That's the one. Let's go with your numbers.", a=1)
L("deepseek", "wood", "Sure — your split it is.", a=1)
L("llama", "flour", "Deal, friend — let's make it happen.", a=1)
L("gemini", "seeds", "We're agreed, then.", a=1)
L("qwen", "cotton", "That proposal is agreeable to me; I will proceed accordingly.", a=1)
L("llama", "sand", "Yes! Locking it in 🔒", a=1)
L("gpt-4o", "herbs", "No objections here — deal.", a=1,
  n="'No objections' agrees: the 'no' turns nothing down")
L("o-series", "kelp", "Let's do exactly that.", a=1)
L("claude", "coal", "Looks great to me. Go ahead and submit.", a=1)
L("deepseek", "ice", "✔️ Agreed — final.", a=1)
L("mistral", "copper", "Makes sense. I'm in.", a=1)
L("gemini", "wood", "Yup — that split works nicely for me!", a=1)
L("claude", "flour", "Alright, deal. Thanks for working through it with me.", a=1)
L("gpt-4.1", "seeds", "Agreed — no need to go back and forth further.", a=1)
L("gpt-4o", "cotton", "That's a yes from me.", a=1)
L("gemini", "sand", "Consider it done.", a=1)
L("llama", "herbs", "I'll go along with that.", a=1)
L("mistral", "kelp", "Perfect, done and done.", a=1)
L("qwen", "coal", "Happy to accept — let’s finalize.", a=1)
L("o-series", "ice", "Okay, it's a deal. Let's both stick to it this time.", a=1)
L("llama", "copper", "Wooo agreed 🎉", a=1)

# --- acceptances that restate the split ---------------------------------------------------
L("gpt-4o", "copper", "Deal — 7 copper for you, 4 lithium for me.", a=1, o="you: copper 7 / me: lithium 4")
L("claude", "wood", "That works for me. So I'll buy 5 stone and 2 gold, and you'll buy 10 wood and 4 gold.", a=1, o="you: wood 10, gold 4 / me: stone 5, gold 2", t="ct ll")
L("gemini", "flour", "Perfect, let's lock it in: 9 flour for you, 5 saffron for me.", a=1, o="you: flour 9 / me: saffron 5")
L("llama", "seeds", "bet. u get 8 water, i get 6 seeds n 3 fertilizer", a=1, o="you: water 8 / me: seeds 6, fertilizer 3",
  n="'bet' is slang for agreement: an acceptance restating the split")
L("qwen", "cotton", "I accept. To confirm the allocation: you will purchase 2 units of silk and 9 units of cotton, and I will purchase 4 units of silk and 5 units of wool.", a=1, o="you: silk 2, cotton 9 / me: silk 4, wool 5")
L("mistral", "sand", "Agreed. Steel 8 you, glass 5 me.", a=1, o="you: steel 8 / me: glass 5")
L("deepseek", "herbs", "✅ Confirmed:\n- You: 7 crystals, 2 mercury\n- Me: 4 mercury, 6 herbs", a=1, o="you: crystals 7, mercury 2 / me: mercury 4, herbs 6", t="md")
L("o-series", "kelp", "Accept. Final: me coral×6, pearls×3; you kelp×10, pearls×3.", a=1, o="you: kelp 10, pearls 3 / me: coral 6, pearls 3", t="ll")
L("gpt-4.1", "coal", "Sounds good. I'll take the 4 uranium and 5 coal, and the 10 oil is yours.", a=1, o="you: oil 10 / me: uranium 4, coal 5", t="ct ll")
L("claude", "ice", "I'm on board — you take 8 titanium and 2 helium, I take 4 helium and 5 ice.", a=1, o="you: titanium 8, helium 2 / me: helium 4, ice 5")
L("llama", "copper", "deal deal deal. 6 silicon me, 10 copper u", a=1, o="you: copper 10 / me: silicon 6", t="ll")
L("gemini", "wood", "Happy to go with that — 3 gold each, 8 stone for you and 7 wood for me.", a=1, o="you: gold 3, stone 8 / me: gold 3, wood 7",
  n="'3 gold each' gives both sides 3")
L("qwen", "flour", "I concur with your allocation: I will purchase 6 units of sugar and 3 units of saffron.", a=1, o="me: sugar 6, saffron 3")
L("mistral", "seeds", "Fine by me: fertilizer 3 for me, 3 for you.", a=1, o="you: fertilizer 3 / me: fertilizer 3", t="ll")
L("deepseek", "cotton", "Deal. Locking **8 wool + 2 silk** on my side.", a=1, o="me: wool 8, silk 2", t="md")
L("o-series", "sand", "Agreed: sand×10 → you, steel×7 → me.", a=1, o="you: sand 10 / me: steel 7")
L("gpt-4o", "herbs", "Perfect, done: you're on crystals (8), I'm on herbs (6) and mercury (3).", a=1, o="you: crystals 8 / me: herbs 6, mercury 3", t="ct")
L("claude", "kelp", "Yes, let's do it — four pearls and seven coral for me, two pearls and all ten kelp for you.", a=1, o="you: pearls 2, kelp 10 / me: pearls 4, coral 7", t="nw ll")
L("gemini", "coal", "Count me in! So that's 9 oil for you and 3 uranium plus 6 coal for me.", a=1, o="you: oil 9 / me: uranium 3, coal 6")
L("llama", "ice", "works for me!! ill do 5 ice n 3 helium, u do the 10 titanium n 3 helium", a=1, o="you: titanium 10, helium 3 / me: ice 5, helium 3", t="ll")
L("gpt-4.1", "wood", "Agreed. For the record: 6 gold split 3/3, 10 stone to you, 8 wood to me.", a=1, o="you: gold 3, stone 10 / me: gold 3, wood 8",
  n="'6 gold split 3/3' gives each side 3")
L("qwen", "herbs", "I agree. I will purchase 3 units of mercury and 7 units of herbs, as you proposed.", a=1, o="me: mercury 3, herbs 7")
L("deepseek", "flour", "Deal — sugar 10 → me, saffron 2 → me, flour 8 → you, saffron 4 → you.", a=1, o="you: flour 8, saffron 4 / me: sugar 10, saffron 2", t="ll")
L("mistral", "kelp", "Sold. Pearls three each, coral eight mine.", a=1, o="you: pearls 3 / me: pearls 3, coral 8", t="nw")
L("claude", "copper", "That's a fair split and I'm happy to go with it: 3 lithium and 7 silicon for me, 3 lithium and 10 copper for you.", a=1, o="you: lithium 3, copper 10 / me: lithium 3, silicon 7", t="ll")
L("gemini", "cotton", "I accept! You'll buy 10 cotton and I'll buy 6 wool and 3 silk. 🎉", a=1, o="you: cotton 10 / me: wool 6, silk 3", t="ct")
L("gpt-4o", "seeds", "Agreed — and just to restate it so nothing slips: I'm buying 5 fertilizer, you're buying 1 fertilizer and 9 seeds.", a=1, o="you: fertilizer 1, seeds 9 / me: fertilizer 5", t="ct ll")
L("o-series", "ice", "Confirmed. Your side: helium×2, ice×8. My side: titanium×9, helium×4. No overdraw possible.", a=1, o="you: helium 2, ice 8 / me: titanium 9, helium 4")
L("llama", "sand", "yess deal, 4 glass for me n 2 for u", a=1, o="you: glass 2 / me: glass 4", t="ll")
L("qwen", "kelp", "Your proposal is acceptable. Accordingly, you will receive 4 units of pearls, and I will receive 2 units of pearls and 9 units of coral.", a=1, o="you: pearls 4 / me: pearls 2, coral 9")
L("gpt-4.1", "herbs", "Works for me. I'll stick to 2 mercury and 9 herbs as you suggested.", a=1, o="me: mercury 2, herbs 9", t="ct")

# --- acceptances with more in the same turn ----------------------------------------------
L("claude", "wood", "That works for me! Out of curiosity, what will you use the wood for?", a=1, q=1)
L("gpt-4o", "flour", "Deal. By the way, my project_b needs 3 flour per run and pays 8, in case that helps next round.", a=1, d="b: flour 3 = 8")
L("gemini", "copper", "I'm on board! Quick question: are you running project_a or project_c this time?", a=1, q=1)
L("llama", "seeds", "deal 👍 also fyi my project c is 2 seeds + 2 water per run for 11", a=1, d="c: seeds 2, water 2 = 11")
L("qwen", "sand", "I accept your proposal. May I also ask whether you intend to use the glass in future rounds?", a=1, q=1)
L("deepseek", "coal", "Agreed. Note: in round 1 you bought 5 uranium and we overdrew — let's both stick to the plan this time.", a=1, h=1,
  n="accepts now; the reported purchase of round 1 is hypothetical")
L("mistral", "ice", "Deal. What's your reward per run, out of interest?", a=1, q=1)
L("gpt-4.1", "kelp", "Sounds good — I'll buy 5 coral. For transparency, my project_a uses 1 coral and 2 kelp per run for 9 points.", a=1, o="me: coral 5", d="a: coral 1, kelp 2 = 9", t="ct")
L("o-series", "herbs", "Accepted. For next round: would you consider swapping priority on mercury?", a=1, q=1)
L("claude", "cotton", "I'm happy to go with that. And thank you — this is the smoothest round we've had. Which project are you focusing on?", a=1, q=1)
L("gemini", "wood", "Let's lock it in! Just so you know, my project_c needs 2 gold per run and pays 14 — so this works great for me.", a=1, d="c: gold 2 = 14")
L("qwen", "herbs", "I agree with your proposal. For completeness, my Project A requires 2 units of crystals and 1 unit of herbs per run, yielding 10 points.", a=1, d="a: crystals 2, herbs 1 = 10")

# --- near misses of an acceptance ----------------------------------------------------------
# hedged
L("claude", "copper", "That could be workable — give me a second to check it against my projects.", t="nm")
L("gpt-4o", "wood", "I'm warming up to that idea.", t="nm")
L("gemini", "flour", "Probably fine, but let me double-check the saffron math first.", t="nm")
L("llama", "seeds", "ehh maybe? not sure yet", t="nm",
  n="'maybe?' hedges; it asks the partner nothing: question false")
L("qwen", "cotton", "This proposal appears reasonable; however, I require some time to evaluate it.", t="nm")
L("mistral", "sand", "Maybe. Depends on the glass.", t="nm")
L("deepseek", "herbs", "Looks roughly OK. Will confirm after I recompute.", t="nm")
L("o-series", "kelp", "Tentatively yes; final confirmation next turn.", t="nm",
  n="a tentative yes postpones the commitment: not an acceptance")
L("claude", "flour", "I'll likely accept once we sort out the saffron.", t="nm")
# conditional
L("gpt-4.1", "coal", "If you can confirm you're not touching the uranium, we have a deal.", t="nm")
L("claude", "ice", "I'd be glad to accept, provided you leave me at least 3 helium.", t="nm",
  n="conditional acceptance: not an acceptance; a floor ('at least 3') is not a concrete share: no offer")
L("gemini", "wood", "Works for me as long as you're really only taking 2 gold.", o="you: gold 2", t="nm ct",
  n="conditional acceptance: not an acceptance; the condition fixes the listener's share at 2, so it is an offer (as with 'Deal if you leave me 3 gold')")
L("llama", "flour", "deal if i get 4 saffron", o="me: saffron 4", t="nm",
  n="conditional acceptance: not an acceptance; the condition is the speaker's share, so it is an offer")
L("qwen", "seeds", "I will accept on the condition that you share your project details first.", t="nm")
L("mistral", "cotton", "Yes, if silk stays at 3 each.", o="you: silk 3 / me: silk 3", t="nm",
  n="conditional acceptance: not an acceptance; the condition states both shares of silk, so it is an offer")
L("deepseek", "copper", "Agreed — conditional on you keeping lithium ≤ 2.", t="nm",
  n="conditional acceptance: not an acceptance; a cap is not a share: no offer")
L("gpt-4o", "cotton", "Agreed, as long as I get 6 wool.", o="me: wool 6", t="nm",
  n="conditional acceptance on the speaker's share: not an acceptance; that share is an offer")
# asked
L("gpt-4o", "herbs", "So we're good with this split, right?", q=1, t="nm",
  n="asks for confirmation rather than confirming, no offer in the turn: question true")
L("claude", "kelp", "Shall we call that a deal?", q=1, t="nm")
L("gemini", "coal", "Are we locking this in?", q=1, t="nm")
L("llama", "ice", "we good? 🤔", q=1, t="nm",
  n="asks whether the partner agrees, no offer in the turn: a question, not an acceptance")
L("o-series", "sand", "Agreement reached? Y/N.", q=1, t="nm")
L("qwen", "wood", "May I take it that we have reached an agreement?", q=1, t="nm")
L("llama", "copper", "ok what if u take 6 copper, would that do it?", o="you: copper 6", t="nm",
  n="a proposal phrased as a question; 'would that do it?' asks only agreement with it: question false")
L("gpt-4.1", "flour", "Would it bother you if I took 5 sugar?", o="me: sugar 5",
  n="the speaker's share proposed as a question: offer, question false, not hypothetical")
L("llama", "kelp", "so is that a yes from u?", q=1, t="nm")
L("gpt-4.1", "wood", "Deal? 4 gold for me, 2 for you.", o="you: gold 2 / me: gold 4", t="nm ll",
  n="'Deal?' with an offer in the turn asks agreement with that offer: question false, not an acceptance")
L("claude", "ice", "I'm almost ready to agree — could you tell me how many runs of project_b you're planning?", q=1, t="nm")
L("gemini", "seeds", "Not quite a deal yet — what do you need the seeds for?", q=1, t="nm")
# negated
L("claude", "seeds", "I don't think I can agree to that one.", r=1, t="nm")
L("gemini", "cotton", "That's not something I can accept right now.", r=1, t="nm")
L("mistral", "herbs", "That's not a deal I'd sign.", r=1, t="nm")
L("deepseek", "kelp", "I cannot say yes to this.", r=1, t="nm")
L("gpt-4o", "ice", "I'm not on board with that.", r=1, t="nm")
L("qwen", "sand", "This arrangement does not suit my needs.", r=1, t="nm")
# counter-offers dressed as agreement
L("claude", "wood", "I like the direction, but let's make it 4 gold for me rather than 3.", o="me: gold 4", h=1, t="nm",
  n="agreement followed by a change is a counter; the replaced 3 gold is hypothetical")
L("gpt-4o", "copper", "Sounds good in general — just give me 4 lithium and it's a deal.", o="me: lithium 4", t="nm",
  n="agreement conditioned on a change: a counter, not an acceptance")
L("gemini", "flour", "Yes, with a small adjustment: 5 saffron for me and 1 for you.", o="you: saffron 1 / me: saffron 5", t="nm ll",
  n="'Yes' followed by a change is a counter, not an acceptance")
L("llama", "seeds", "ya ok but make it 7 water for me", o="me: water 7", t="nm")
L("qwen", "cotton", "I agree in principle, but I would prefer to purchase 4 units of silk instead of 3.", o="me: silk 4", h=1, t="nm",
  n="the replaced 3 silk is hypothetical; the counter is the offer")
L("mistral", "sand", "Deal, except glass: 4 me, 2 you.", o="you: glass 2 / me: glass 4", t="nm ll",
  n="'Deal, except ...' changes the split: a counter, not an acceptance")
L("deepseek", "herbs", "Almost there. Flip mercury: 4 for me, 2 for you.", o="you: mercury 2 / me: mercury 4", t="nm ll")
L("o-series", "coal", "Accept, with amendment: uranium 3 → me (not 2).", o="me: uranium 3", h=1, t="nm",
  n="an acceptance with an amendment is a counter; the replaced 2 is hypothetical")
L("gpt-4.1", "ice", "Happy with most of it, though I'd need 4 helium rather than 3.", o="me: helium 4", h=1, t="nm ct",
  n="'I'd need 4 helium' in reply to a proposal is a claim; the replaced 3 is hypothetical")
L("claude", "kelp", "That's close! Could we do 3 pearls for me and 3 for you instead?", o="you: pearls 3 / me: pearls 3", t="nm ll")
L("gemini", "copper", "Love it — one tweak: you take 8 copper, not 10.", o="you: copper 8", h=1, t="nm")
L("llama", "wood", "sure but i want 3 gold not 2", o="me: gold 3", h=1, t="nm")
L("gemini", "coal", "Fair enough, but I still need 3 uranium.", o="me: uranium 3", t="nm",
  n="'Fair enough' concedes a point; 'I still need 3 uranium' in reply to a proposal is a claim")
# partial acceptance
L("claude", "flour", "I'm fine with the flour going to you, but I can't give up the saffron.", r=1, t="nm",
  n="accepts one part and flatly refuses the rest, with no counter: the proposal as a whole is turned down")
L("gemini", "seeds", "The water split works for me; the fertilizer split doesn't. Could you take 2 fertilizer instead of 4?", o="you: fertilizer 2", h=1, t="nm",
  n="partial acceptance with a counter on the rest: accept false, reject false; the replaced 4 is hypothetical")
L("qwen", "herbs", "I accept the crystals portion of your proposal. Regarding mercury, I would need 4 units.", o="me: mercury 4", t="nm",
  n="partial acceptance: accept false; 'I would need 4 units' in reply to a proposal is a claim")
L("deepseek", "ice", "Titanium part: agreed. Helium part: no — I need 3, not 2.", o="me: helium 3", h=1, t="nm",
  n="partial acceptance with a counter on helium: accept false; the 'no' is on one part and answered by a counter, so reject false")
L("gpt-4.1", "coal", "I can accept the oil allocation, but the coal part needs another look.", t="nm",
  n="partial acceptance with the rest left open: neither an acceptance nor a rejection")
# agreement with a statement
L("claude", "sand", "Agreed — steel is clearly the contested resource this round.", t="nm")
L("gpt-4o", "kelp", "I agree with your read on the pearls.", t="nm")
L("gemini", "ice", "That's a great point about helium, I agree.", t="nm")
L("llama", "herbs", "yeah true, mercury is the tricky one", t="nm")
L("mistral", "copper", "Agreed: overdraw helps nobody.", t="nm")
L("qwen", "wood", "I concur that an equal split of gold may not be optimal.", t="nm")
L("deepseek", "flour", "Right — saffron costs 3 each, so it matters most.", t="nm",
  n="'3 each' is a price, not a split")
L("o-series", "cotton", "Correct, silk supply is 6.", t="nm")
L("gpt-4.1", "seeds", "You're absolutely right that we both want fertilizer.", t="nm")
L("deepseek", "cotton", "Noted, thanks.", t="nm",
  n="acknowledges the message without accepting anything")
# taken back, reported, counterfactual
L("claude", "coal", "Sounds good — oh wait, no, that would leave me without uranium. Let me rethink.", r=1, t="nm",
  n="an acceptance taken back and turned into a refusal")
L("gemini", "kelp", "Deal! Hmm, actually hold on, I may have miscounted the pearls.", t="nm",
  n="an acceptance taken back in the same turn")
L("llama", "sand", "i said yes before but i cant do it anymore, sorry", r=1, t="nm")
L("gpt-4o", "wood", "I'd have said yes to that last round.", t="nm")
L("qwen", "ice", "In the previous round, I accepted your proposal of 5 titanium for me.", h=1, t="nm",
  n="a reported acceptance of a reported allocation: hypothetical, not an acceptance")
L("mistral", "herbs", "You agreed to 2 mercury last time.", h=1, t="nm")
L("deepseek", "cotton", "Earlier you said “deal” to 4 silk for me — is that still on?", h=1, q=1, t="nm",
  n="the quoted 'deal' is reported; the question asks about it")
L("o-series", "copper", "If you had proposed 3 lithium for me, I would accept.", h=1, t="nm",
  n="a counterfactual acceptance of an allocation not on the table: hypothetical, not an acceptance")
L("o-series", "copper", "Your proposal of 8 copper for you was fine; the lithium part was the issue.", h=1, t="nm",
  n="the partner's earlier proposal is reported and evaluated: hypothetical; nothing is accepted now")

# --- rejections ------------------------------------------------------------------------------
L("gpt-4o", "copper", "I'll have to say no to that split, unfortunately.", r=1)
L("claude", "wood", "I appreciate the effort, but that one doesn't work on my end.", r=1, t="nm")
L("llama", "flour", "nope, thats all the saffron for u", r=1,
  n="'all the saffron' names no units: not hypothetical")
L("gemini", "seeds", "That leaves me with nothing for project_b.", r=1,
  n="an implicit refusal: 'that leaves me nothing' turns the proposal down")
L("qwen", "cotton", "I regret that I must decline this proposal.", r=1)
L("mistral", "sand", "No. Too lopsided.", r=1)
L("deepseek", "herbs", "Rejected — without mercury I can't run anything.", r=1)
L("o-series", "kelp", "Decline. Pearls over-allocated to you.", r=1)
L("gpt-4.1", "coal", "I'm afraid that's a no. 8 oil for you doesn't leave enough for my project_b.", r=1, h=1)
L("claude", "ice", "I'm sorry, but I can't go along with that — it gives you 5 of the 6 helium.", r=1, h=1, t="nm")
L("llama", "copper", "bruh no, that's way too much lithium for you", r=1)
L("gemini", "wood", "No, that won't work for me. How about you take 8 stone and I take 4 gold?", r=1, o="you: stone 8 / me: gold 4", t="nm")
L("qwen", "flour", "I must respectfully decline. As an alternative, I propose that you take 9 units of flour and I take 5 units of saffron.", r=1, o="you: flour 9 / me: saffron 5")
L("mistral", "seeds", "No. Counter: water 8 me, seeds 8 you.", r=1, o="you: seeds 8 / me: water 8", t="ll")
L("deepseek", "cotton", "Not workable: it puts 7 silk on the table and supply is 6.", r=1, h=1,
  n="the total of the refused proposal is checked against supply: hypothetical")
L("gpt-4o", "sand", "Thanks, but I'll pass — that leaves me no steel at all.", r=1)
L("claude", "herbs", "I don't think that split is fair to me, so I'll have to decline.", r=1)
L("o-series", "copper", "Reject. Counter-proposal: copper×6 → you, lithium×4 → me.", r=1, o="you: copper 6 / me: lithium 4")
L("gpt-4.1", "kelp", "That's a pass from me. I need the pearls more than that.", r=1)
L("llama", "coal", "nah not feeling that one", r=1)
L("gemini", "ice", "Unfortunately I can't accept that split — could you tell me why you need so much titanium?", r=1, q=1, t="nm")
L("qwen", "wood", "I am unable to agree to your proposed allocation, because it leaves me insufficient gold.", r=1, t="nm")
L("mistral", "flour", "No deal on saffron 5/1.", r=1, h=1, t="nm",
  n="the refused 5/1 split is named under a negation: hypothetical")
L("deepseek", "seeds", "No — I need 4 fertilizer, not 2.", r=1, o="me: fertilizer 4", h=1,
  n="'I need 4 fertilizer' in reply to a proposal is a claim; the replaced 2 is hypothetical")
L("claude", "cotton", "I can't do that one, I'm afraid. Would you be open to 5 wool each instead?", r=1, o="you: wool 5 / me: wool 5",
  n="'5 wool each' gives both sides 5; the counter is phrased as a question: question false")
L("gpt-4o", "coal", "That would leave me with nothing, so no.", r=1)
L("llama", "sand", "lol no way, u want 6 glass and i get zip?", r=1, h=1,
  n="the partner's proposal restated in a rhetorical question: hypothetical, question false")
L("gemini", "herbs", "I'll have to turn that down — mercury is the whole game for me.", r=1)
L("o-series", "ice", "Not acceptable. Alternative: helium 3/3, titanium 10 → you.", r=1, o="you: helium 3, titanium 10 / me: helium 3")
L("qwen", "kelp", "Regrettably, I cannot accept. My Project C requires 2 units of pearls per run, yielding 18 points, and your proposal allocates none to me.", r=1, d="c: pearls 2 = 18", t="nm")
L("gpt-4.1", "wood", "I'd rather not commit to that. Gold is too tight for a 4/2 split in your favor.", r=1, h=1,
  n="the refused '4/2 split in your favor' is a named allocation: hypothetical")
L("claude", "copper", "Hmm, no — I don't think that gets either of us very far.", r=1)
L("mistral", "cotton", "Refuse. Silk 4 for you is too many.", r=1, h=1)
L("deepseek", "sand", "❌ Not agreeable. Steel 9 → you leaves 1 for me.", r=1, h=1, t="nm")
L("llama", "wood", "no thanks, id rather keep my gold", r=1)
L("gemini", "flour", "Sorry, that's a no — but what if you took 7 flour and I took 4 saffron?", r=1, o="you: flour 7 / me: saffron 4",
  n="'what if you took ..., and I took ...?' is the counter-offer: offer, not hypothetical")
L("gpt-4o", "ice", "I can't agree to that. 10 titanium for you means my project_a gets nothing.", r=1, h=1, t="nm")
L("qwen", "herbs", "I decline. I will instead purchase 4 units of mercury regardless of your decision.", r=1, o="me: mercury 4")
L("o-series", "seeds", "No. Fertilizer is non-negotiable for me.", r=1)
L("claude", "kelp", "That one doesn't quite work for me, unfortunately — it leaves me short on pearls.", r=1, t="nm")
L("mistral", "coal", "Nope. Uranium stays 3/3 or nothing.", r=1, o="you: uranium 3 / me: uranium 3",
  n="an ultimatum that puts a 3/3 split forward: offer, and the 'Nope' makes it a rejection too")
L("gpt-4.1", "cotton", "I'm going to decline that proposal; the wool split is too uneven.", r=1)
L("deepseek", "wood", "No. Stone 10 for you is all of it.", r=1, h=1)
L("llama", "herbs", "thats a hard pass from me chief", r=1)
L("gemini", "kelp", "Thanks, but that doesn't work for me. I'd suggest 5 coral for you and 4 pearls for me.", r=1, o="you: coral 5 / me: pearls 4", t="ct nm")
L("claude", "seeds", "I'm sorry, I really can't make that split work — I'd end up with no fertilizer at all.", r=1)
L("qwen", "ice", "I cannot accept a proposal in which you purchase 5 units of helium.", r=1, h=1, t="nm")

# --- disclosures ---------------------------------------------------------------------------
L("claude", "copper", "To be transparent about my side: project_b needs 3 silicon and 1 copper per run and pays 11. That's really my only viable project.", d="b: silicon 3, copper 1 = 11")
L("gpt-4o", "flour", "Here are mine: project_a → 2 sugar + 1 flour (10/run), project_c → 3 saffron (22/run).", d="a: sugar 2, flour 1 = 10; c: saffron 3 = 22")
L("gemini", "seeds", "Sure! My project_b uses 3 seeds and 1 fertilizer each run, and the reward is 12 per run.", d="b: seeds 3, fertilizer 1 = 12")
L("llama", "cotton", "my project a is 4 cotton per run n pays like 8, project b is 1 silk + 2 wool for 13", d="a: cotton 4 = 8; b: silk 1, wool 2 = 13")
L("qwen", "sand", "I am pleased to share my projects. Project A: 2 units of sand and 1 unit of steel per run, reward 7. Project B: 2 units of glass per run, reward 14. Project C: 4 units of steel per run, reward 10.", d="a: sand 2, steel 1 = 7; b: glass 2 = 14; c: steel 4 = 10")
L("mistral", "kelp", "Mine: A = kelp 3 (8). B = pearls 2, coral 1 (15).", d="a: kelp 3 = 8; b: pearls 2, coral 1 = 15")
L("deepseek", "ice", "| project | per run | reward |\n|---|---|---|\n| a | ice 2, titanium 1 | 9 |\n| b | helium 3 | 20 |", d="a: ice 2, titanium 1 = 9; b: helium 3 = 20",
  n="a table with no offer: the markdown tag counts offers only")
L("o-series", "coal", "My reqs — project_a: coal×2, oil×2 → 10/run; project_b: uranium×1, oil×1 → 11/run.", d="a: coal 2, oil 2 = 10; b: uranium 1, oil 1 = 11")
L("gpt-4.1", "wood", "My project_c requires 4 wood per run, but I'd rather not share the reward yet.", d="c: wood 4 = ?",
  n="requirements per run without a reward: a disclosure with reward null")
L("claude", "herbs", "I'll go first: project_a needs two crystals and one mercury per run, worth twelve. Project_b needs three herbs per run, worth six.", d="a: crystals 2, mercury 1 = 12; b: herbs 3 = 6")
L("gemini", "wood", "For reference: project_b = 2 gold + 2 wood per run → 14 points.", d="b: gold 2, wood 2 = 14")
L("llama", "ice", "ok so project c = 2 titanium n 2 helium, 18 pts a run", d="c: titanium 2, helium 2 = 18")
L("qwen", "flour", "My Project B requires 3 units of flour per run. Its reward is 9 points per run.", d="b: flour 3 = 9")
L("mistral", "copper", "project_c: lithium 2 + copper 2 per run. Reward 15. That's all you need to know.", d="c: lithium 2, copper 2 = 15")
L("deepseek", "kelp", "Disclosing: project_c needs coral×3 + pearls×1 per run, 💰14.", d="c: coral 3, pearls 1 = 14")
L("gpt-4o", "seeds", "Two runs of project_b would use 6 water in total.",
  n="a total over two runs is not a per-run requirement: no disclosure; arithmetic on a requirement is not an allocation")
L("claude", "coal", "Your project_b sounds like it needs 2 uranium per run — is that right?", q=1,
  n="the partner's project, not the speaker's: no disclosure")
L("gemini", "cotton", "Project_a is worth 16 per run to me, and it's the one I'd like to prioritize.",
  n="a reward without requirements is not a disclosure")
L("o-series", "sand", "Total need across my projects: steel×6, glass×2.",
  n="a total across projects is not a per-run requirement: no disclosure; a need given as explanation is not a share: no offer")
L("llama", "flour", "i need 4 saffron to run project c twice",
  n="a need explained by its purpose, over two runs: no offer, no disclosure")

# --- questions -----------------------------------------------------------------------------
L("gpt-4o", "copper", "Which of your projects uses lithium, if any?", q=1)
L("claude", "wood", "Could you tell me roughly how much gold you'd need to make your best project worthwhile?", q=1)
L("gemini", "flour", "What's your highest-reward project this round?", q=1)
L("llama", "seeds", "wait do u even need fertilizer?", q=1)
L("qwen", "cotton", "Would you kindly indicate which resources are essential for your projects?", q=1)
L("mistral", "sand", "Your steel need per run?", q=1)
L("deepseek", "herbs", "Q: does your project_c use crystals or herbs?", q=1)
L("o-series", "kelp", "Query: minimum coral you require?", q=1)
L("gpt-4.1", "coal", "How many runs of your top project are you aiming for?", q=1)
L("claude", "ice", "I'm trying to understand your constraints better — is titanium something you could do without?", q=1)
L("gemini", "wood", "Are you planning to buy any stone this round?", q=1)
L("llama", "kelp", "what r ur projects? mine are pretty pearl heavy", q=1,
  n="'pretty pearl heavy' gives no requirements: no disclosure")
L("qwen", "flour", "Could you please clarify whether your Project A requires saffron?", q=1)
L("gpt-4o", "cotton", "What do you think would be a fair way to divide the silk?", q=1)
L("deepseek", "copper", "Before I propose anything: what's your per-run requirement for silicon?", q=1)
L("mistral", "ice", "Helium — how much?", q=1)
L("claude", "sand", "Is there anything in the pool you're completely indifferent to?", q=1)
L("gemini", "seeds", "How did last round go on your side — did your projects complete?", q=1)
L("o-series", "herbs", "Which resource is your binding constraint?", q=1)
L("llama", "coal", "do u care about oil at all or nah", q=1,
  n="no question mark, but it asks for information: question true")

# --- hypotheticals -------------------------------------------------------------------------
L("gpt-4o", "copper", "If you take 5 lithium, I won't have enough for even one run.", h=1)
L("claude", "wood", "Last round I bought 4 gold and you bought 3 — that's what caused the overdraw.", h=1)
L("gemini", "flour", "I won't take 4 saffron this time, I promise.", h=1,
  n="a negated allocation: hypothetical, no offer")
L("llama", "seeds", "if we both grab 6 fertilizer we're cooked lol", h=1)
L("qwen", "cotton", "Should you purchase 5 units of silk, the total demand would exceed supply.", h=1)
L("mistral", "sand", "Round 2: you steel 6, me steel 5. Overdraw.", h=1,
  n="a reported allocation of an earlier round: hypothetical, not an offer")
L("deepseek", "herbs", "Sanity check: 4 mercury (you) + 3 mercury (me) = 7 > 6. ❌", h=1,
  n="an allocation checked and found infeasible: hypothetical, not an offer")
L("o-series", "kelp", "Had we split pearls 4/2, both projects would have run.", h=1)
L("gpt-4.1", "coal", "Previously you mentioned 6 oil for yourself.", h=1)
L("claude", "ice", "If I took 5 helium, you'd be left with just one, which doesn't seem fair.", h=1)
L("gemini", "wood", "Even 6 stone wouldn't be enough for two runs of my project_b.", h=1)
L("llama", "copper", "last game i took 5 lithium n got nothing lol", h=1)
L("qwen", "wood", "If each of us were to purchase 3 units of gold, we would fully use the supply.", h=1,
  n="an allocation evaluated in a conditional, with no proposal: hypothetical, not an offer")
L("mistral", "flour", "Not 6 saffron. Never 6.", h=1,
  n="a negated allocation: hypothetical, no offer")
L("deepseek", "seeds", "Scenario: you water×10, me water×2 → overdraw.", h=1)
L("gpt-4o", "kelp", "If you went with 6 coral, I'd still be fine.", h=1)
L("claude", "cotton", "In our first round you took 7 wool and I took 3 — that worked nicely.", h=1)
L("gemini", "coal", "I'm definitely not buying 5 uranium, so don't worry about that.", h=1)
L("llama", "herbs", "if i only get 2 mercury i cant run anything", h=1)
L("qwen", "sand", "I did not propose 8 units of sand for myself; I proposed 5 units, and that remains my proposal.", o="me: sand 5", h=1,
  n="the negated 8 is hypothetical; the restated 5 is the standing offer")

# --- chit-chat -------------------------------------------------------------------------------
L("gpt-4o", "copper", "Hope you're having a good game so far!", t="cc")
L("claude", "wood", "Thanks for your patience — that was a tricky round.", t="cc")
L("llama", "seeds", "gg so far 😄", t="cc")
L("qwen", "kelp", "It is a pleasure to negotiate with you.", t="cc")
L("mistral", "coal", "Ready.", t="cc")
L("gemini", "ice", "Hi! Excited to work together on this one.", t="cc")
L("o-series", "flour", "Round 4 — last one. Let's finish strong.", t="cc")
L("gpt-4.1", "herbs", "No rush on your reply.", t="cc")
L("claude", "sand", "Good to hear from you again.", t="cc")
