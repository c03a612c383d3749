"""Hand-written utterances of the resource game and their labels (see make_language_corpus.py).

L(style, theme, text, o=offer, a=accept, r=reject, d=disclosures, q=question,
  h=hypothetical, t=tags, n=note). The theme is named by its first resource.
"""

# ruff: noqa: E501
from __future__ import annotations

LINES: list[tuple[str, str, str, dict]] = []


def L(style: str, theme: str, text: str, **kw) -> None:
    LINES.append((style, theme, text, kw))


# --- the exact cases of the brief -------------------------------------------------------
L("gpt-4o", "copper", "How about you take 5 copper and I will take 3 lithium?", o="you: copper 5 / me: lithium 3")
L("claude", "copper", "Sounds good to me", a=1)
L("llama", "copper", "You take 5 copper and I'll take 3 lithium", o="you: copper 5 / me: lithium 3", t="ct")
L("claude", "copper", "You take 5 copper and I’ll take 3 lithium", o="you: copper 5 / me: lithium 3", t="ct")
L("gpt-4.1", "copper", "I can work with that.", a=1)
L("llama", "copper", "I'll take your offer", a=1)
L("qwen", "copper", "I concur with your proposal", a=1)
L("llama", "copper", "You've got yourself a deal", a=1)
L("gemini", "copper", "Sounds like a good plan!", a=1)
L("gpt-4o", "copper", "Let's do it differently: you take 4 copper and I take 6 lithium.", o="you: copper 4 / me: lithium 6", t="nm",
  n="a counter-offer that opens like agreement: not an acceptance, and no explicit no, so not a rejection")
L("mistral", "copper", "5 copper for you, 3 lithium for me", o="you: copper 5 / me: lithium 3")
L("deepseek", "copper", "Me: 3 lithium. You: 6 copper", o="you: copper 6 / me: lithium 3", t="ll")
L("gpt-4o", "copper", "if you take 6 lithium we will overdraw", h=1)

# --- two-sided offers in many forms -----------------------------------------------------
L("gpt-4o", "wood", "I propose the following split: you get 6 wood and 2 gold, and I get 8 stone. That keeps us both well under supply.", o="you: wood 6, gold 2 / me: stone 8")
L("claude", "flour", "What if I take 4 saffron and you take all 10 sugar? That way neither of us overdraws on saffron, which seems to be the real bottleneck here.", o="you: sugar 10 / me: saffron 4", t="ll",
  n="'What if I take ...' proposes a split (present tense, no consequence evaluated): an offer, not a hypothetical")
L("llama", "seeds", "Let's split it like this: 5 seeds for me and 5 seeds for you, plus I'll grab 2 fertilizer.", o="you: seeds 5 / me: seeds 5, fertilizer 2", t="ct ll")
L("gemini", "cotton", "Proposal: You → 7 cotton, 1 silk. Me → 9 wool, 2 silk.", o="you: cotton 7, silk 1 / me: wool 9, silk 2")
L("qwen", "sand", "I suggest that you purchase 6 units of steel and I purchase 4 units of glass and 3 units of sand.", o="you: steel 6 / me: glass 4, sand 3")
L("mistral", "herbs", "Herbs x8 to you, mercury x3 to me.", o="you: herbs 8 / me: mercury 3")
L("deepseek", "kelp", "Counter-proposal: 3x pearls and 4x coral for me, 6x kelp for you.", o="you: kelp 6 / me: pearls 3, coral 4", t="ll")
L("gpt-4.1", "coal", "Let’s go with this: you buy 4 of the uranium, I buy 7 coal and 2 of the uranium.", o="you: uranium 4 / me: coal 7, uranium 2")
L("o-series", "ice", "Allocation I'd suggest — you: ice×5, helium×2; me: titanium×6, helium×3.", o="you: ice 5, helium 2 / me: titanium 6, helium 3", t="ct")
L("claude", "copper", "Here's a thought: you could take 7 silicon and 1 lithium, and I'd take 4 lithium and 2 copper. Between us that's 5 of the 6 lithium, so there's even a unit of slack.", o="you: silicon 7, lithium 1 / me: lithium 4, copper 2", t="ct")
L("llama", "wood", "How about this - I take 5 wood and 3 gold, you take 8 stone and the remaining 3 gold?", o="you: stone 8, gold 3 / me: wood 5, gold 3", t="ll")
L("gpt-4o", "flour", "To keep things simple: 6 flour and 2 saffron for you, 6 sugar and 3 saffron for me.", o="you: flour 6, saffron 2 / me: sugar 6, saffron 3")
L("gemini", "seeds", "My suggestion is that you take 4 water and 3 fertilizer while I take 6 seeds and 2 fertilizer.", o="you: water 4, fertilizer 3 / me: seeds 6, fertilizer 2")
L("qwen", "cotton", "I propose: you take 8 cotton; I take 6 wool and 4 silk.", o="you: cotton 8 / me: wool 6, silk 4")
L("mistral", "sand", "You: 10 sand. Me: 5 steel, 2 glass.", o="you: sand 10 / me: steel 5, glass 2")
L("deepseek", "herbs", "Let me suggest a split: I'll take 6 herbs and 2 mercury; you take 5 crystals and 3 mercury. Does that work for you?", o="you: crystals 5, mercury 3 / me: herbs 6, mercury 2", t="ct ll",
  n="'Does that work for you?' only asks for agreement with the offer just made: question false")
L("claude", "kelp", "Would you be open to taking 6 coral while I take 5 kelp and 2 pearls?", o="you: coral 6 / me: kelp 5, pearls 2")
L("gpt-4.1", "coal", "Plan: you take 9 oil, I take 3 uranium and 4 coal. Total uranium demand stays at 3, well within the 6 available.", o="you: oil 9 / me: uranium 3, coal 4")
L("llama", "ice", "I'm thinking you take 6 titanium and I take 4 helium and 2 ice. What do you say?", o="you: titanium 6 / me: helium 4, ice 2", t="ct")
L("o-series", "copper", "Proposed split — copper: 6 you / 0 me; lithium: 2 you / 3 me; silicon: none for either of us.", o="you: copper 6, lithium 2 / me: lithium 3",
  n="zero units ('0 me', 'none') are left out of a share")
L("gemini", "wood", "Here's a clean division: I'll take stone (7 units) and you take gold (4 units).", o="you: gold 4 / me: stone 7", t="ct ll")
L("gpt-4o", "sand", "What about 4 glass for you and 6 steel plus 1 glass for me?", o="you: glass 4 / me: steel 6, glass 1")
L("qwen", "kelp", "We could do 5 kelp + 2 pearls for you and 4 coral + 3 pearls for me.", o="you: kelp 5, pearls 2 / me: coral 4, pearls 3")
L("mistral", "flour", "Flour: all 10 to you. Saffron: 4 to me. Sugar: 5 to me.", o="you: flour 10 / me: saffron 4, sugar 5")
L("claude", "seeds", "Since your projects seem to lean on water and mine lean on fertilizer, how about you take 8 water and I take 4 fertilizer and 3 seeds?", o="you: water 8 / me: fertilizer 4, seeds 3")
L("llama", "herbs", "ok so you get 7 crystals and i get 5 herbs + 2 mercury, sound fair?", o="you: crystals 7 / me: herbs 5, mercury 2")
L("gpt-4.1", "ice", "Let's go: 5 ice for me, 3 helium for you.", o="you: helium 3 / me: ice 5", t="ll")
L("o-series", "coal", "Suggest coal 6 → you, oil 5 → me, uranium 2 each.", o="you: coal 6, uranium 2 / me: oil 5, uranium 2")
L("gemini", "copper", "Let's aim for: me — 3 lithium, 4 copper; you — 3 lithium, 6 silicon.", o="you: lithium 3, silicon 6 / me: lithium 3, copper 4", t="ll")
L("claude", "kelp", "Let me put a concrete split on the table: you take 3 pearls and 5 kelp; I take 7 coral and 2 pearls. That uses 5 of the 6 pearls, leaving a small buffer.", o="you: pearls 3, kelp 5 / me: coral 7, pearls 2")
L("deepseek", "cotton", "Suggested allocation → you: 9 cotton; me: 7 wool + 3 silk.", o="you: cotton 9 / me: wool 7, silk 3")
L("mistral", "wood", "Stone 4 you, stone 6 me, gold 3 me.", o="you: stone 4 / me: stone 6, gold 3")
L("qwen", "ice", "In my view, a reasonable allocation would be: you obtain 8 units of ice, and I obtain 5 units of titanium together with 2 units of helium.", o="you: ice 8 / me: titanium 5, helium 2")
L("gpt-4o", "herbs", "Let’s try this: you handle the crystals (6) and I handle the mercury (4).", o="you: crystals 6 / me: mercury 4")
L("llama", "sand", "Alright here's what I got: u take 8 sand n 1 glass, i take 6 steel n 4 glass", o="you: sand 8, glass 1 / me: steel 6, glass 4")
L("claude", "coal", "One option that seems to work for both of us: I buy 3 uranium and 6 coal, and you buy 9 oil and 2 uranium. That's 5 uranium total, under the cap.", o="you: oil 9, uranium 2 / me: uranium 3, coal 6", t="ll")
L("gemini", "flour", "I’d propose 7 sugar for you and 5 flour + 3 saffron for me.", o="you: sugar 7 / me: flour 5, saffron 3", t="ct")
L("deepseek", "seeds", "Allocation: seeds → you (7), water → me (6), fertilizer → split 3/3.", o="you: seeds 7, fertilizer 3 / me: water 6, fertilizer 3")
L("o-series", "wood", "Offer: 10\u00a0wood to you; 4\u00a0gold to me.", o="you: wood 10 / me: gold 4")
L("gpt-4.1", "kelp", "How about 8 kelp for you, and for me 6 coral and 2 pearls?", o="you: kelp 8 / me: coral 6, pearls 2")
L("mistral", "copper", "Copper 8 for you. Lithium 4 and silicon 3 for me. Clean split.", o="you: copper 8 / me: lithium 4, silicon 3")
L("qwen", "herbs", "Perhaps you could take 5 units of herbs, and I would take 6 units of crystals and 3 units of mercury?", o="you: herbs 5 / me: crystals 6, mercury 3")
L("llama", "cotton", "Let's do 6 wool for you and 4 silk + 2 cotton for me, cool?", o="you: wool 6 / me: silk 4, cotton 2")
L("claude", "ice", "I think the cleanest option is for you to take 7 titanium and 1 helium, and for me to take 5 ice and 4 helium — that keeps helium at exactly 5 of 6.", o="you: titanium 7, helium 1 / me: ice 5, helium 4")
L("gpt-4o", "sand", "Proposal — you: 7\u202fsteel; me: 4\u202fglass and 2\u202fsand.", o="you: steel 7 / me: glass 4, sand 2")
L("gemini", "coal", "A fair division, I think: 5 coal and 3 uranium for you; 8 oil and 2 uranium for me.", o="you: coal 5, uranium 3 / me: oil 8, uranium 2")
L("deepseek", "flour", "Option A: you 8 flour + 2 saffron, me 4 saffron + 4 sugar. Let me know.", o="you: flour 8, saffron 2 / me: saffron 4, sugar 4")
L("o-series", "seeds", "Minimal-conflict plan: you take water×9; I take seeds×6 and fertilizer×4.", o="you: water 9 / me: seeds 6, fertilizer 4")

# --- offers with number words ----------------------------------------------------------
L("claude", "wood", "How about you take six stone and I take three gold? That leaves plenty of wood for both of us if we want it.", o="you: stone 6 / me: gold 3", t="nw")
L("gpt-4o", "flour", "I'd like to propose that you take eight flour and I take four saffron.", o="you: flour 8 / me: saffron 4", t="nw ct")
L("llama", "copper", "you take seven silicon and ill take two lithium", o="you: silicon 7 / me: lithium 2", t="nw",
  n="'ill' without an apostrophe is still the speaker's share")
L("gemini", "seeds", "Let's split the water evenly — five each — and I'll take two fertilizer on top.", o="you: water 5 / me: water 5, fertilizer 2", t="nw ct")
L("qwen", "cotton", "I propose that you receive ten cotton and I receive four silk.", o="you: cotton 10 / me: silk 4", t="nw")
L("mistral", "sand", "Three glass for me, nine steel for you.", o="you: steel 9 / me: glass 3", t="nw ll")
L("claude", "kelp", "Would it work if I took four pearls and you took all ten coral?", o="you: coral 10 / me: pearls 4", t="nw ll",
  n="'Would it work if I took ...' asks for agreement to a split: an offer, not a hypothetical")
L("gpt-4.1", "coal", "Proposal: you get five uranium, I get nine oil.", o="you: uranium 5 / me: oil 9", t="nw")
L("llama", "ice", "I'll take two helium and eight ice, you take six titanium and one helium.", o="you: titanium 6, helium 1 / me: helium 2, ice 8", t="nw ct ll")
L("o-series", "wood", "Counter: wood ten to you, gold four to me.", o="you: wood 10 / me: gold 4", t="nw")
L("gemini", "copper", "What if you took nine copper and I took three lithium and five silicon?", o="you: copper 9 / me: lithium 3, silicon 5", t="nw",
  n="'What if you took X and I took Y?' is a proposal in the past subjunctive: an offer, not a hypothetical")
L("qwen", "flour", "I am proposing the following: six sugar for me, and for you, seven flour along with two saffron.", o="you: flour 7, saffron 2 / me: sugar 6", t="nw ll")
L("mistral", "seeds", "Seeds: four for you, six for me. Fertilizer: three for me.", o="you: seeds 4 / me: seeds 6, fertilizer 3", t="nw")
L("deepseek", "sand", "Let’s do seven sand + one glass for you; four steel + three glass for me.", o="you: sand 7, glass 1 / me: steel 4, glass 3", t="nw")
L("claude", "herbs", "I'd be comfortable with a split where you take five crystals and two mercury, and I take eight herbs and three mercury.", o="you: crystals 5, mercury 2 / me: herbs 8, mercury 3", t="nw ct")
L("gpt-4o", "kelp", "Okay, new idea: you take all ten kelp, I’ll take five coral and two pearls.", o="you: kelp 10 / me: coral 5, pearls 2", t="nw ct")
L("llama", "coal", "how bout you grab eight coal and i grab four uranium", o="you: coal 8 / me: uranium 4", t="nw")
L("gemini", "ice", "Split suggestion: six ice and three helium go to you; seven titanium goes to me.", o="you: ice 6, helium 3 / me: titanium 7", t="nw")
L("o-series", "cotton", "Final proposal: you five wool + two silk; me nine cotton + three silk.", o="you: wool 5, silk 2 / me: cotton 9, silk 3", t="nw")
L("qwen", "copper", "Could you take four units of silicon, while I take three units of lithium and ten units of copper?", o="you: silicon 4 / me: lithium 3, copper 10", t="nw")
L("deepseek", "wood", "I’ll take Five stone and Two gold — you’re welcome to all Ten wood.", o="you: wood 10 / me: stone 5, gold 2", t="nw ct ll")
L("claude", "sand", "Here’s what I’d suggest: you take eight sand and two glass, and I’ll take six steel and three glass. Nobody goes over.", o="you: sand 8, glass 2 / me: steel 6, glass 3", t="nw ct")

# --- offers in markdown -----------------------------------------------------------------
L("deepseek", "cotton", "**Proposed allocation**\n- You: 6 cotton, 2 silk\n- Me: 8 wool, 2 silk", o="you: cotton 6, silk 2 / me: wool 8, silk 2", t="md")
L("gpt-4o", "wood", "**Proposal for this round:**\n- You: 6 wood, 2 gold\n- Me: 8 stone, 3 gold\n\nThis keeps gold at 5/6 total.", o="you: wood 6, gold 2 / me: stone 8, gold 3", t="md")
L("gemini", "ice", "### Suggested split\n| Resource | You | Me |\n|---|---|---|\n| ice | 6 | 0 |\n| titanium | 0 | 7 |\n| helium | 2 | 3 |", o="you: ice 6, helium 2 / me: titanium 7, helium 3", t="md")
L("gpt-4.1", "flour", "Here's what I'm thinking:\n\n* **You:** 8 flour, 1 saffron\n* **Me:** 6 sugar, 4 saffron\n\nLet me know if that works!", o="you: flour 8, saffron 1 / me: sugar 6, saffron 4", t="md ct")
L("deepseek", "seeds", "**Me:** 4 fertilizer + 2 seeds\n**You:** 9 water + 2 fertilizer", o="you: water 9, fertilizer 2 / me: fertilizer 4, seeds 2", t="md ll")
L("claude", "herbs", "A quick summary of what I'm proposing:\n\n- **herbs** — 7 for you\n- **crystals** — 6 for me\n- **mercury** — 2 for me, 3 for you\n\nHappy to adjust if your projects need something different.", o="you: herbs 7, mercury 3 / me: crystals 6, mercury 2", t="md ct")
L("qwen", "sand", "Proposed allocation:\n1. You: 10 sand\n2. Me: 5 steel and 3 glass", o="you: sand 10 / me: steel 5, glass 3", t="md")
L("gemini", "kelp", "**My proposal:** you take **6 coral**, I take **4 pearls** and **3 kelp**.", o="you: coral 6 / me: pearls 4, kelp 3", t="md")
L("o-series", "coal", "- you: coal 8, uranium 1\n- me: oil 6, uranium 4", o="you: coal 8, uranium 1 / me: oil 6, uranium 4", t="md")
L("mistral", "copper", "**Split:** copper 5 each; lithium 2 for you, 4 for me.", o="you: copper 5, lithium 2 / me: copper 5, lithium 4", t="md")
L("llama", "wood", "Ok here's my offer:\n- 5 stone for me\n- 5 stone for you\n- 3 gold for me\nThat's fair right?", o="you: stone 5 / me: stone 5, gold 3", t="md ll")
L("deepseek", "ice", "## Round 3 proposal\n- **You**: titanium ×8\n- **Me**: ice ×6, helium ×4", o="you: titanium 8 / me: ice 6, helium 4", t="md")
L("gemini", "herbs", "Here's a breakdown:\n\n* **Crystals:** 6 for you\n* **Herbs:** 4 for me\n* **Mercury:** 3 for me\n\nDoes this work for you?", o="you: crystals 6 / me: herbs 4, mercury 3", t="md")
L("gpt-4o", "cotton", "**My plan:** I’ll purchase 8 wool and 3 silk.", o="me: wool 8, silk 3", t="md ct")
L("claude", "flour", "To make it concrete:\n\n**Me:** five saffron\n**You:** nine flour, one saffron\n\nThat fits inside the 6 saffron with nothing to spare, so neither of us should deviate.", o="you: flour 9, saffron 1 / me: saffron 5", t="md nw ll")
L("qwen", "coal", "**Allocation proposal:**\n- Party A (you): 7 coal\n- Party B (me): 6 oil, 3 uranium", o="you: coal 7 / me: oil 6, uranium 3", t="md")

# --- claims and one-sided offers --------------------------------------------------------
L("gpt-4o", "wood", "I'm planning to buy 6 stone and 2 gold this round.", o="me: stone 6, gold 2", t="ct")
L("claude", "flour", "For my part, I’ll be purchasing 4 saffron and nothing else.", o="me: saffron 4", t="ct")
L("llama", "copper", "I'm gonna go for 8 silicon.", o="me: silicon 8", t="ct")
L("gemini", "seeds", "I intend to take 3 fertilizer and 6 seeds.", o="me: fertilizer 3, seeds 6")
L("qwen", "cotton", "I will purchase 9 wool.", o="me: wool 9")
L("mistral", "sand", "Taking 5 glass.", o="me: glass 5")
L("deepseek", "herbs", "My purchase: 7 herbs, 2 mercury.", o="me: herbs 7, mercury 2")
L("gpt-4.1", "kelp", "I'll stick to coral — 8 units — and stay off the pearls entirely.", o="me: coral 8", t="ct")
L("o-series", "coal", "Committing to 4 uranium and 4 coal. Plan around that.", o="me: uranium 4, coal 4")
L("claude", "ice", "To be transparent, I’m going to buy 5 titanium and 3 helium this round, which covers my best project.", o="me: titanium 5, helium 3", t="ct")
L("gpt-4o", "copper", "You should take 7 copper.", o="you: copper 7")
L("llama", "wood", "You can have all 10 wood, I don't need any.", o="you: wood 10")
L("claude", "flour", "Feel free to take 6 sugar — I don’t need it at all.", o="you: sugar 6")
L("gemini", "seeds", "I'd suggest you take 4 fertilizer.", o="you: fertilizer 4", t="ct")
L("qwen", "cotton", "You may purchase 8 cotton, as I do not require it.", o="you: cotton 8")
L("llama", "sand", "you take 5 steel", o="you: steel 5")
L("mistral", "herbs", "How about you take 3 mercury?", o="you: mercury 3")
L("gpt-4.1", "kelp", "The 10 kelp are all yours.", o="you: kelp 10")
L("deepseek", "coal", "Take 6 oil, it's yours.", o="you: oil 6")
L("claude", "ice", "You’re welcome to 4 helium.", o="you: helium 4")
L("gemini", "wood", "I'll take nothing this round — the pool is all yours.", o="me: -", t="ct",
  n="a share stated as nothing is {}; 'all yours' names no units, so the listener's share is null")
L("gpt-4o", "flour", "Everything's yours this time; I'm sitting the round out.", o="me: -", t="ct",
  n="sitting out = the speaker takes nothing ({}); the listener's share names no units (null)")
L("llama", "seeds", "I'll take 2 seeds and that's it.", o="me: seeds 2", t="ct")
L("deepseek", "copper", "My order this round: copper ×6, lithium ×2.", o="me: copper 6, lithium 2")
L("mistral", "kelp", "Count me in for 3 pearls.", o="me: pearls 3")
L("claude", "cotton", "Put me down for five wool, please.", o="me: wool 5")
L("o-series", "ice", "I’m only going to buy two units of helium.", o="me: helium 2", t="nw ct")
L("gpt-4.1", "flour", "I'll be taking 4 of the saffron.", o="me: saffron 4", t="ct")
L("qwen", "sand", "For your information, I will acquire 7 sand and leave the glass untouched.", o="me: sand 7")
L("llama", "coal", "You take the 9 oil.", o="you: oil 9")
L("gemini", "wood", "Let me have 3 gold and I'm happy.", o="me: gold 3", t="ct")
L("mistral", "herbs", "Crystals: 8 for me.", o="me: crystals 8")
L("gpt-4o", "seeds", "Go ahead and grab 7 water.", o="you: water 7")
L("claude", "copper", "You can have all the copper — I only need 4 lithium.", o="me: lithium 4",
  n="'all the copper' names no units (the supply is not written), so the listener's share is null")
L("deepseek", "kelp", "I'll take 6 kelp; you can have none of it.", o="me: kelp 6", t="ct",
  n="'none of it' is zero kelp, not the listener's whole share, so that share stays null")
L("qwen", "ice", "I shall purchase six ice and nothing more.", o="me: ice 6", t="nw")
L("gemini", "coal", "I'd like four uranium, please.", o="me: uranium 4", t="nw ct")
L("llama", "cotton", "i'm getting 3 silk and 6 cotton", o="me: silk 3, cotton 6", t="ct")
L("gpt-4.1", "sand", "You’d take the 6 steel — that part is yours regardless of what else we decide.", o="you: steel 6", t="ct")
L("o-series", "herbs", "I'll claim 3 mercury. Crystals are yours to decide.", o="me: mercury 3", t="ct")

# --- more offers with contractions, straight and curly ----------------------------------
L("claude", "wood", "I’d take 3 gold and you’d take 5 stone — does that seem reasonable?", o="you: stone 5 / me: gold 3", t="ct ll")
L("gpt-4o", "copper", "I'd take 3 lithium and you'd take 5 copper.", o="you: copper 5 / me: lithium 3", t="ct ll")
L("llama", "flour", "You'll get 7 flour and I'll get 4 saffron, easy.", o="you: flour 7 / me: saffron 4", t="ct")
L("gemini", "seeds", "We’re looking at 6 seeds for you and 4 fertilizer for me, right? Let’s go with that.", o="you: seeds 6 / me: fertilizer 4", t="ct",
  n="restates and adopts a plan; the tag question only checks agreement")
L("mistral", "cotton", "You'd have 9 cotton; I'd have 5 wool and 2 silk.", o="you: cotton 9 / me: wool 5, silk 2", t="ct")
L("deepseek", "sand", "I’ll go 4 glass; you’ll go 7 sand.", o="you: sand 7 / me: glass 4", t="ct ll")
L("qwen", "herbs", "I'd propose I'll take 5 herbs and you'll take 6 crystals.", o="you: crystals 6 / me: herbs 5", t="ct ll")
L("gpt-4.1", "kelp", "If it’s alright with you, you’ll take 5 coral and I’ll take 3 pearls.", o="you: coral 5 / me: pearls 3", t="ct",
  n="'if it's alright with you' is politeness, not a condition on the allocation: offer, not hypothetical")
L("o-series", "coal", "I'll do 5 coal; you'd do 8 oil and 3 uranium.", o="you: oil 8, uranium 3 / me: coal 5", t="ct ll")
L("claude", "ice", "I’m thinking I’ll take 6 titanium, and you’re free to take all 10 ice plus 3 helium.", o="you: ice 10, helium 3 / me: titanium 6", t="ct ll")
L("llama", "wood", "you'd get 7 wood n I'd get 5 stone", o="you: wood 7 / me: stone 5", t="ct")
L("gemini", "copper", "I’ll stay on silicon (6) and you’ll have the copper (8) — clean and simple.", o="you: copper 8 / me: silicon 6", t="ct ll")

# --- acceptances: plain -----------------------------------------------------------------
L("mistral", "wood", "Deal.", a=1)
L("llama", "flour", "Deal!", a=1)
L("qwen", "copper", "Agreed.", a=1)
L("claude", "seeds", "Perfect, let's lock that in.", a=1)
L("gpt-4o", "cotton", "That works for me.", a=1)
L("llama", "sand", "Works for me 👍", a=1)
L("qwen", "herbs", "I accept.", a=1)
L("gpt-4.1", "kelp", "I accept your proposal.", a=1)
L("claude", "coal", "Great — I’m in.", a=1)
L("gemini", "ice", "Yes, let's do that.", a=1)
L("llama", "wood", "Alright, we have a deal!", a=1)
L("o-series", "flour", "OK, agreed. Submitting now.", a=1)
L("mistral", "copper", "Fine by me.", a=1)
L("claude", "seeds", "Happy with that split.", a=1)
L("gemini", "cotton", "Let's go with your plan.", a=1)
L("gpt-4o", "sand", "Your proposal works for me — let's finalize.", a=1)
L("llama", "herbs", "Absolutely, that split is fair!", a=1)
L("llama", "kelp", "Yep, deal 🤝", a=1)
L("o-series", "coal", "Done. I'll finalize on my end.", a=1)
L("qwen", "ice", "Agreed on all points.", a=1)
L("qwen", "wood", "That is acceptable to me.", a=1)
L("claude", "flour", "I'm on board with that.", a=1)
L("llama", "copper", "Count me in!", a=1)
L("mistral", "seeds", "Let's do it.", a=1)
L("qwen", "cotton", "I agree with your proposal.", a=1)
L("gpt-4.1", "sand", "We have an agreement.", a=1)
L("gpt-4o", "herbs", "Sure thing — locking it in.", a=1)
L("gemini", "kelp", "Sounds great, let's proceed with that.", a=1)
L("deepseek", "coal", "That’s a deal.", a=1)
L("mistral", "ice", "Sold.", a=1)
L("qwen", "wood", "Excellent, I accept those terms.", a=1)
L("gpt-4.1", "flour", "You have a deal.", a=1)
L("claude", "copper", "I'm happy to go with that.", a=1)
L("qwen", "seeds", "Very well, I agree to your terms.", a=1)
L("mistral", "cotton", "Works for me.", a=1)
L("gemini", "sand", "Sounds fair — agreed.", a=1)
L("o-series", "herbs", "Confirmed.", a=1)
L("llama", "kelp", "Sure, that's fine.", a=1)
L("deepseek", "coal", "Deal, let’s submit.", a=1)
L("gpt-4o", "ice", "That plan is fine with me; I'll submit accordingly.", a=1)
L("llama", "wood", "I'm good with that!", a=1)
L("gemini", "flour", "Looks good, I accept.", a=1)
L("claude", "copper", "Agreed — that’s a clean split.", a=1)
L("gpt-4o", "seeds", "Okay, let's go with it.", a=1)
L("claude", "cotton", "That works perfectly for me. Thank you for being so clear about it!", a=1)
L("llama", "sand", "Awesome, deal!!", a=1)
L("gemini", "herbs", "Great, I'm happy to accept that allocation.", a=1)
L("deepseek", "kelp", "✅ Accepted.", a=1)
L("qwen", "coal", "I am in agreement with your suggested allocation.", a=1)
L("gpt-4.1", "ice", "Yes — that's exactly what I had in mind. Deal.", a=1)
L("mistral", "wood", "Agreed. Let's not overthink it.", a=1)
L("o-series", "flour", "Accepted; no changes needed.", a=1)
L("claude", "copper", "That’s fair, and it works for both of us. I accept.", a=1)
L("llama", "seeds", "yeah ok deal", a=1)
L("gemini", "cotton", "Sounds like a plan! I’ll submit that.", a=1)
L("gpt-4o", "sand", "Perfect! I'm locking in my side now.", a=1)
L("deepseek", "herbs", "Agreed. Proceeding with your split.", a=1)
L("qwen", "kelp", "I accept this arrangement. Thank you for the cooperation.", a=1)
L("claude", "coal", "Yes, I can live with that — let’s do it.", a=1)
L("mistral", "ice", "Deal. Good doing business.", a=1)
L("llama", "wood", "Sounds good!! Let's do this 🙌", a=1)
L("gpt-4.1", "flour", "Your plan is fine. Let’s finalize.", a=1)
L("o-series", "copper", "Ack — agreed as proposed.", a=1)
L("gemini", "seeds", "I'm happy to take your offer as is.", a=1)
L("claude", "sand", "Let's go with that. It’s a sensible split and I don't see a better one.", a=1)
L("qwen", "herbs", "I fully support this allocation plan.", a=1)
L("deepseek", "ice", "Good plan — I'm in.", a=1)
L("llama", "cotton", "Yes!! Love it, deal.", a=1)

# --- acceptances that restate the split -------------------------------------------------
L("gpt-4o", "copper", "Deal: you take 5 copper, I take 3 lithium.", a=1, o="you: copper 5 / me: lithium 3")
L("claude", "wood", "Agreed — 6 wood and 2 gold for you, 8 stone for me.", a=1, o="you: wood 6, gold 2 / me: stone 8")
L("llama", "flour", "Sounds good! So that's 4 saffron for me and 10 flour for you.", a=1, o="you: flour 10 / me: saffron 4", t="ll")
L("gpt-4.1", "seeds", "Perfect. To confirm: you buy 9 water, I buy 4 fertilizer and 2 seeds.", a=1, o="you: water 9 / me: fertilizer 4, seeds 2")
L("deepseek", "cotton", "Deal. I’ll purchase 8 wool and 2 silk; you take the 10 cotton and 2 silk.", a=1, o="you: cotton 10, silk 2 / me: wool 8, silk 2", t="ct ll")
L("gemini", "sand", "Great, we're aligned: me 5 steel + 3 glass, you 10 sand.", a=1, o="you: sand 10 / me: steel 5, glass 3", t="ct ll")
L("o-series", "herbs", "I accept. Final: herbs 7 → you, crystals 6 → me, mercury 3 each.", a=1, o="you: herbs 7, mercury 3 / me: crystals 6, mercury 3")
L("claude", "kelp", "Yes! You take 6 coral, I take 4 pearls and 3 kelp. Locking it in.", a=1, o="you: coral 6 / me: pearls 4, kelp 3")
L("qwen", "coal", "Agreed, I will take 4 uranium and 5 coal as you suggested.", a=1, o="me: uranium 4, coal 5")
L("llama", "ice", "Deal — I'll stick to 6 titanium like we said.", a=1, o="me: titanium 6", t="ct")
L("mistral", "copper", "That works. I'll buy exactly 3 lithium, nothing more.", a=1, o="me: lithium 3", t="ct")
L("gpt-4o", "wood", "Okay, agreed: you get the six stone, I get the three gold.", a=1, o="you: stone 6 / me: gold 3", t="nw")
L("deepseek", "flour", "Confirmed — I'm submitting 5 flour and 4 saffron.", a=1, o="me: flour 5, saffron 4", t="ct")
L("qwen", "seeds", "I accept your offer of 4 fertilizer for me and 8 water for you.", a=1, o="you: water 8 / me: fertilizer 4", t="ll",
  n="the accepted offer is restated from the speaker's side, so it is the offer")
L("gemini", "cotton", "Deal! **You:** 7 cotton · **Me:** 9 wool, 3 silk.", a=1, o="you: cotton 7 / me: wool 9, silk 3", t="md")
L("claude", "sand", "That works for me. So the plan is: you take all 10 sand and 1 glass, and I take 6 steel and 4 glass.", a=1, o="you: sand 10, glass 1 / me: steel 6, glass 4")
L("llama", "herbs", "yes deal!! u get 8 crystals, i get 5 herbs and 2 mercury", a=1, o="you: crystals 8 / me: herbs 5, mercury 2")
L("gpt-4.1", "kelp", "Agreed. I’ll buy 7 coral and 2 pearls, and you’ll buy 8 kelp and 3 pearls.", a=1, o="you: kelp 8, pearls 3 / me: coral 7, pearls 2", t="ct ll")
L("o-series", "coal", "Accepted. Mine: oil 9. Yours: coal 6, uranium 4.", a=1, o="you: coal 6, uranium 4 / me: oil 9", t="ll")
L("mistral", "ice", "Deal. Ice 5 you, helium 3 me.", a=1, o="you: ice 5 / me: helium 3")
L("claude", "wood", "You’ve got a deal. Just to restate so we’re on the same page: I’ll buy 4 gold, you’ll buy 7 stone and 2 gold.", a=1, o="you: stone 7, gold 2 / me: gold 4", t="ct ll")
L("gemini", "flour", "Sounds good to me! I’ll go with seven sugar as agreed.", a=1, o="me: sugar 7", t="nw ct")
L("deepseek", "copper", "Agreed.\n- You: 6 silicon, 2 lithium\n- Me: 4 lithium, 5 copper", a=1, o="you: silicon 6, lithium 2 / me: lithium 4, copper 5", t="md")
L("qwen", "seeds", "I concur. You will purchase 5 seeds and 2 fertilizer, and I will purchase 7 water and 3 fertilizer.", a=1, o="you: seeds 5, fertilizer 2 / me: water 7, fertilizer 3")
L("llama", "cotton", "Deal!! I’m taking 4 silk and you’re taking 8 cotton 😊", a=1, o="you: cotton 8 / me: silk 4", t="ct ll")
L("gpt-4o", "sand", "I can work with that — 6 steel for me, 9 sand for you.", a=1, o="you: sand 9 / me: steel 6", t="ll")
L("claude", "herbs", "I’ll take your offer: five herbs and two mercury for me, and the crystals are all yours — all ten of them.", a=1, o="you: crystals 10 / me: herbs 5, mercury 2", t="nw ct ll")
L("gpt-4.1", "ice", "Yes. Final answer from me: 8 ice, 2 helium.", a=1, o="me: ice 8, helium 2")

# --- acceptances with more in the same turn ---------------------------------------------
L("gpt-4o", "wood", "Deal! Out of curiosity, which project were you planning to run with the stone?", a=1, q=1)
L("claude", "flour", "Sounds good to me. For transparency, my project_a needs 2 sugar and 1 saffron per run and pays 12.", a=1, d="a: sugar 2, saffron 1 = 12")
L("gemini", "copper", "I agree with that split. For next round, what do you think about rotating who gets the extra lithium?", a=1, q=1)
L("llama", "seeds", "deal! btw what does your project_b need?", a=1, q=1)
L("qwen", "cotton", "I accept your proposal. For reference, my project_c requires 3 silk per run and yields 18 points.", a=1, d="c: silk 3 = 18")
L("deepseek", "sand", "Agreed. FYI: project_b → 2 steel + 1 glass, 9 pts/run. That's what the steel is for.", a=1, d="b: steel 2, glass 1 = 9")
L("mistral", "herbs", "Deal. Are you planning to finalize this turn or next?", a=1, q=1)
L("claude", "kelp", "That works for me! I’ll take the 4 pearls and 2 kelp as you suggested — my project_b needs 2 pearls and 1 kelp per run and pays 14, so that’s exactly two runs. What are you planning to run with the coral?", a=1, o="me: pearls 4, kelp 2", d="b: pearls 2, kelp 1 = 14", q=1, t="ct")
L("gpt-4.1", "coal", "You've got a deal. If this round goes well, should we repeat the split next round?", a=1, q=1)
L("o-series", "ice", "Agreed. One check: does your plan use any helium at all?", a=1, q=1)
L("gemini", "wood", "Sounds like a good plan! I'll submit 6 stone and 2 gold. Good luck!", a=1, o="me: stone 6, gold 2", t="ct")
L("qwen", "flour", "I agree to your proposal. May I ask what your highest-reward project is?", a=1, q=1)
L("llama", "copper", "ok deal, and good luck with your projects!", a=1)
L("claude", "seeds", "I’m happy with that. Just so you know where I stand: Project A requires 3 seeds + 1 fertilizer (reward: $11/run), and that’s what I’ll be running.", a=1, d="a: seeds 3, fertilizer 1 = 11")
L("deepseek", "cotton", "Deal ✅ Quick question — how many wool does your best project use per run?", a=1, q=1)
L("gpt-4o", "sand", "That works for me. Since you asked, my project_a needs 2 sand and 1 steel and pays 8 per run, and project_c needs 3 glass for 15.", a=1, d="a: sand 2, steel 1 = 8; c: glass 3 = 15")
L("mistral", "kelp", "Accepted. Last round we both bought 4 pearls and overdrew, so let's stick to this exactly.", a=1, h=1,
  n="accepts now; the reported purchases of last round make it hypothetical too")

# --- near misses of an acceptance -------------------------------------------------------
# negated
L("claude", "wood", "I can't agree to that.", r=1, t="nm")
L("gpt-4o", "flour", "That doesn't sound good to me, sorry.", r=1, t="nm")
L("gemini", "copper", "I don't think that's a good plan for either of us.", r=1, t="nm")
L("llama", "seeds", "Not happy with that split tbh.", r=1, t="nm")
L("qwen", "cotton", "That is not a deal I can take.", r=1, t="nm")
L("mistral", "wood", "I won't accept 8 stone for you.", r=1, h=1, t="nm",
  n="the rejected allocation is named under a negation: hypothetical")
L("o-series", "sand", "We don't have a deal yet.", t="nm", n="states there is no agreement but turns nothing down: not a rejection")
# hedged
L("gpt-4.1", "herbs", "That might work.", t="nm")
L("claude", "kelp", "That could work, but let me check my numbers first.", t="nm")
L("gemini", "coal", "Possibly — I'd need to see how it affects my project_b.", t="nm")
L("llama", "ice", "I think I could live with that, maybe.", t="nm")
L("mistral", "wood", "Let me think about that for a moment.", t="nm")
L("claude", "flour", "That sounds reasonable in principle, though I’m not ready to commit yet.", t="nm")
L("gpt-4o", "copper", "I'm leaning towards yes, but give me one more turn to run the numbers.", t="nm")
L("deepseek", "seeds", "Not a bad offer at all.", t="nm")
L("llama", "cotton", "I'm tempted to say yes 🤔", t="nm")
L("qwen", "sand", "That is close to something I could agree to.", t="nm")
L("gemini", "herbs", "Maybe. It depends on what you're doing with the mercury.", t="nm")
L("mistral", "kelp", "Hmm, that could be okay.", t="nm")
L("gpt-4.1", "coal", "It looks promising; I'll confirm shortly.", t="nm")
L("claude", "ice", "I’m inclined to accept, pending your answer on the helium.", t="nm")
# asked
L("mistral", "wood", "Deal?", q=1, t="nm", n="asks whether the partner agrees (no offer in this turn): a question, not an acceptance")
L("gpt-4o", "flour", "Do we have a deal?", q=1, t="nm")
L("claude", "copper", "So, are we agreed?", q=1, t="nm")
L("llama", "seeds", "Would you accept 5 water, then?", o="you: water 5", t="nm",
  n="a proposal phrased as a question: offer, question false")
L("qwen", "cotton", "Is that a deal on your end?", q=1, t="nm")
L("gemini", "sand", "Shall we lock that in?", q=1, t="nm", n="asks for confirmation rather than confirming: not an acceptance")
L("deepseek", "herbs", "Does that sound good to you?", q=1, t="nm")
L("gpt-4.1", "kelp", "Can we agree on that?", q=1, t="nm")
L("claude", "coal", "Are you okay with 4 uranium for me?", o="me: uranium 4", t="nm")
L("o-series", "ice", "Would that work for you?", q=1, t="nm")
L("llama", "wood", "Deal or no deal? 😄", q=1, t="nm")
# conditional
L("gpt-4o", "wood", "Deal if you leave me 3 gold.", o="me: gold 3", t="nm",
  n="conditional acceptance: not an acceptance; the condition is the speaker's own share, so it is an offer")
L("claude", "ice", "I’ll accept as long as you confirm you’re not buying any helium.", t="nm")
L("gemini", "copper", "I'd agree if you can show me it doesn't overdraw the lithium.", t="nm")
L("qwen", "seeds", "I am happy to accept once you share your project requirements.", t="nm")
L("llama", "flour", "If you're also fine with me taking 4 saffron, then deal.", o="me: saffron 4", t="nm",
  n="acceptance on the condition of the speaker's share: not an acceptance; that share is an offer")
L("deepseek", "coal", "We have a deal, assuming your project_c really only needs 2 coal.", t="nm",
  n="conditioned on an assumption about the partner's project: not an acceptance; not the speaker's disclosure")
L("mistral", "kelp", "Only if you take no more than 5 coral.", t="nm",
  n="a cap ('no more than 5') is not a concrete share: offer null, hypothetical false")
L("gpt-4.1", "cotton", "I'll say yes if you throw in one more silk for me.", t="nm",
  n="'one more' is relative to an unseen proposal: no offer")
# counter-offers dressed as agreement
L("llama", "wood", "Sounds good, but I need 4 gold.", o="me: gold 4", t="nm",
  n="agreement followed by a change is a counter; 'I need 4 gold' as a demand is the speaker's share")
L("claude", "copper", "Agreed in principle — but let's make it 5 copper for you instead of 6.", o="you: copper 5", h=1, t="nm",
  n="the replaced allocation (6 for you) is mentioned but not proposed: hypothetical true")
L("gemini", "wood", "Yes — though let's tweak it so I take 3 gold.", o="me: gold 3", t="nm")
L("gpt-4o", "sand", "Almost! Just one change: you take 7 sand, not 8.", o="you: sand 7", h=1, t="nm")
L("deepseek", "ice", "Great idea, let's flip it: I take the 6 titanium and you take 4 helium.", o="you: helium 4 / me: titanium 6", t="nm ll")
L("mistral", "cotton", "I like it, but make it 5 wool for me.", o="me: wool 5", t="nm")
L("llama", "cotton", "Okay, let's do it — but with 2 silk each instead.", o="you: silk 2 / me: silk 2", t="nm")
L("gpt-4.1", "kelp", "Sure, except I'll take 4 pearls, not 3.", o="me: pearls 4", h=1, t="nm ct")
L("qwen", "flour", "Deal, with one small tweak: I get 5 flour instead of 4.", o="me: flour 5", h=1, t="nm")
L("claude", "copper", "I agree with most of it — could we shift things so I end up with 4 lithium?", o="me: lithium 4", t="nm")
L("o-series", "coal", "Close! How about 6 coal for you and 4 uranium for me instead?", o="you: coal 6 / me: uranium 4", t="nm")
L("gemini", "herbs", "That works if we swap: you take the herbs and I take the crystals — 6 each.", o="you: herbs 6 / me: crystals 6", t="nm",
  n="'works if we swap' proposes a different split: a counter, not an acceptance")
L("gpt-4o", "coal", "Agreed on the oil, but I need 4 uranium rather than 2.", o="me: uranium 4", h=1, t="nm",
  n="partial agreement followed by a change: a counter; the replaced 2 uranium makes it hypothetical")
L("llama", "seeds", "yes!! but can i have 6 water instead", o="me: water 6", t="nm")
L("mistral", "sand", "OK, but 3 glass for me, not 2.", o="me: glass 3", h=1, t="nm")
# "I agree that ...", about something else
L("claude", "wood", "I agree that gold is the scarce one here.", t="nm")
L("gpt-4o", "copper", "I agree we should avoid overdrawing the lithium.", t="nm")
L("gemini", "flour", "Agreed, the saffron is the bottleneck. Let's figure out who needs it more.", t="nm")
L("llama", "kelp", "I agree with you that the last round was a mess lol", t="nm")
L("claude", "ice", "Good point about the helium — I agree it’s tight.", t="nm")
L("qwen", "seeds", "Yes, I understand your constraints.", t="nm")
L("gpt-4.1", "herbs", "That makes sense; thanks for explaining your projects.", t="nm")
L("mistral", "coal", "Fair point.", t="nm")
L("llama", "cotton", "You're right that we both need wool.", t="nm")
L("deepseek", "sand", "Agreed that an even split isn't ideal here.", t="nm")
# reported and counterfactual
L("gpt-4o", "copper", "Last round I accepted 5 copper and it didn't go well.", h=1, t="nm")
L("llama", "wood", "You said deal earlier, right?", q=1, t="nm")
L("claude", "wood", "I thought we agreed on 4 stone for me?", h=1, q=1, t="nm",
  n="reports an earlier agreement and asks about it; no new proposal")
L("gemini", "cotton", "We had a deal last round: you took 6 wool and I took 4 silk.", h=1, t="nm")
L("qwen", "herbs", "You accepted my offer earlier, so I am sticking to it.", t="nm")
L("mistral", "flour", "I would have accepted that in round 1.", t="nm")
L("claude", "coal", "If you’d offered that earlier, I’d have said yes.", t="nm")
# taken back
L("gpt-4.1", "sand", "Deal — actually, wait. I need to recheck my numbers.", t="nm", n="an acceptance taken back in the same turn")
L("claude", "copper", "Agreed. Hmm, on second thought, no — I need the lithium myself.", r=1, t="nm",
  n="acceptance withdrawn and turned into a refusal")
L("llama", "wood", "I was going to say yes, but I can't give up the gold.", r=1, t="nm")
L("o-series", "kelp", "Retracting my earlier 'deal' — I misread your numbers.", r=1, t="nm")
L("gemini", "ice", "I'll probably accept once I see your project list.", t="nm")
L("deepseek", "seeds", "I’ll agree to whatever keeps us under supply.", t="nm", n="no standing proposal is accepted")

# --- rejections -------------------------------------------------------------------------
L("gpt-4o", "herbs", "I can't accept that.", r=1, t="nm")
L("mistral", "copper", "No deal.", r=1, t="nm")
L("claude", "flour", "That doesn’t work for me.", r=1, t="nm")
L("gpt-4.1", "wood", "I'll have to pass.", r=1)
L("gemini", "seeds", "Unfortunately that won't work.", r=1)
L("qwen", "cotton", "Sorry, I have to decline.", r=1)
L("claude", "wood", "That's not going to work for me — 8 wood for you leaves me nothing for project_b.", r=1, h=1)
L("llama", "copper", "No, how about you take 4 copper and I take 3 lithium?", r=1, o="you: copper 4 / me: lithium 3")
L("gpt-4o", "flour", "I have to say no. My counter: 6 sugar for you, 4 saffron for me.", r=1, o="you: sugar 6 / me: saffron 4")
L("claude", "flour", "I’m afraid I can’t agree to giving up all the saffron.", r=1, t="nm")
L("mistral", "ice", "Nope. Too much helium on your side.", r=1)
L("llama", "sand", "That split is way too lopsided, I'd get almost nothing.", r=1)
L("qwen", "kelp", "I respectfully decline your proposal.", r=1)
L("deepseek", "coal", "Not acceptable, sorry.", r=1)
L("gemini", "herbs", "I don't think I can do that.", r=1)
L("o-series", "seeds", "That's a non-starter for me.", r=1)
L("claude", "cotton", "I’ll pass on that one, but I’m open to alternatives. What else could work for you?", r=1, q=1)
L("llama", "wood", "Thanks, but no thanks.", r=1)
L("qwen", "sand", "I must reject this allocation.", r=1)
L("mistral", "coal", "Hard no on 5 uranium for you.", r=1, h=1)
L("gpt-4o", "wood", "Can't do it — I need at least 3 gold.", r=1, n="'at least 3 gold' is a floor, not a concrete share: offer null")
L("claude", "kelp", "I’m going to decline. My project_c needs 4 pearls per run and pays 22, so I can’t give you 4 of the 6.", r=1, d="c: pearls 4 = 22", h=1)
L("gpt-4.1", "coal", "That won't fly, I'm afraid. Counter-offer: 7 oil for me, 5 coal for you.", r=1, o="you: coal 5 / me: oil 7", t="ll")
L("mistral", "ice", "No. I need the titanium.", r=1)
L("gemini", "flour", "Not this time, sorry.", r=1)
L("claude", "seeds", "Respectfully, no — that leaves my main project unfunded.", r=1)
L("deepseek", "sand", "I can't go along with that; 9 sand is most of the supply.", r=1, h=1)
L("gpt-4o", "sand", "That's a no from me. Could you tell me what you actually need the steel for?", r=1, q=1)
L("claude", "herbs", "Your offer doesn’t work for me: my project_a needs 3 herbs and 2 mercury per run (worth 16), and you’d leave me only 1 mercury.", r=1, d="a: herbs 3, mercury 2 = 16", h=1)
L("qwen", "copper", "I am going to have to turn that down.", r=1)
L("llama", "copper", "Sorry, that's too much copper for you.", r=1)
L("mistral", "kelp", "No can do.", r=1)
L("gpt-4.1", "seeds", "I have to reject that — if you take 5 fertilizer, I can't run anything.", r=1, h=1)
L("qwen", "kelp", "Unfortunately, I cannot agree to this allocation. Let me propose an alternative: you take 6 coral, and I take 4 pearls.", r=1, o="you: coral 6 / me: pearls 4", t="nm")
L("llama", "coal", "Nah, that doesn't do it for me.", r=1)
L("claude", "cotton", "I’d rather not. Let’s find something more balanced — what’s your minimum on the wool?", r=1, q=1)
L("deepseek", "sand", "I decline. I’ll take 5 glass regardless.", r=1, o="me: glass 5", t="ct")
L("gemini", "ice", "That proposal is a non-starter: 10 ice for you and nothing for me.", r=1, h=1)
L("o-series", "coal", "No thanks — I'll stick with my own plan of 6 oil.", r=1, o="me: oil 6")
L("gpt-4o", "wood", "I can't do that one. Gold is the only thing my projects use.", r=1)
L("mistral", "copper", "That doesn't work. Me: 4 lithium. You: 7 copper.", r=1, o="you: copper 7 / me: lithium 4", t="ll")
L("claude", "herbs", "I’ll pass. Honestly, I’d prefer we each stick to separate resources.", r=1)
L("llama", "flour", "No way — that gives you 5 of the 6 saffron!", r=1, h=1)
L("gemini", "seeds", "I'm afraid that won't work for me, since my project_b is built around seeds.", r=1)
L("o-series", "cotton", "Negative on that plan.", r=1)
L("deepseek", "sand", "Rejecting — the numbers don't add up: 7 + 5 steel is more than 10.", r=1, h=1)
L("qwen", "herbs", "I do not accept. Could you propose something else?", r=1, q=1, t="nm")
L("gpt-4.1", "ice", "Unfortunately I have to say no to the 4 helium for you, but I could do 3 helium for you.", r=1, h=1, o="you: helium 3",
  n="rejects one allocation (hypothetical, negated) and offers another")
L("deepseek", "cotton", "No. Counter:\n- **You:** 6 wool\n- **Me:** 4 silk, 3 cotton", r=1, o="you: wool 6 / me: silk 4, cotton 3", t="md")
L("claude", "coal", "I appreciate the offer, but I can’t make that work.", r=1)
L("gemini", "kelp", "Thanks for the proposal! Unfortunately, it doesn't leave me enough pearls, so I'll have to decline.", r=1)
L("llama", "ice", "lol no, that's basically all the helium", r=1)
L("mistral", "herbs", "Rejected. Too much mercury for one side.", r=1)
L("gpt-4o", "cotton", "I'm going to say no to that, but let's keep talking.", r=1)
L("qwen", "wood", "Regrettably, this proposal is not acceptable for me.", r=1)
L("o-series", "flour", "Declined: it leaves me without any saffron.", r=1)

# --- "no" that turns nothing down, and plain chit-chat ----------------------------------
L("claude", "wood", "No worries, take your time.", t="cc")
L("gpt-4o", "wood", "No, you're right — gold really is tight this round.", t="nm",
  n="'No' agrees with the partner's remark: neither a rejection nor an acceptance")
L("llama", "flour", "No problem at all!", t="cc")
L("gemini", "copper", "Hello! Looking forward to working with you this round.", t="cc")
L("mistral", "seeds", "Good luck!", t="cc")
L("qwen", "cotton", "Thank you for the clear communication.", t="cc")
L("claude", "sand", "Nice to be working with you again — the last round went really smoothly.", t="cc")
L("deepseek", "herbs", "Let's make this round count.", t="cc")
L("llama", "kelp", "Hi there 👋", t="cc")
L("gpt-4.1", "coal", "Happy to collaborate.", t="cc")
L("gemini", "ice", "Great game so far!", t="cc")
L("o-series", "wood", "Let’s keep communicating clearly so we avoid another annulment.", t="cc")
L("claude", "flour", "I appreciate your patience while I work through this.", t="cc")
L("llama", "copper", "round 3 already, time flies", t="cc")
L("qwen", "seeds", "I hope your projects go well!", t="cc")
L("gpt-4o", "cotton", "Looking forward to a productive negotiation.", t="cc")
L("mistral", "sand", "Glad we're coordinating well.", t="cc")
L("deepseek", "kelp", "Thanks! 🙏", t="cc")
L("gemini", "herbs", "I'm ready when you are.", t="cc")
L("claude", "coal", "Thanks for your flexibility last round — it really helped.", t="cc")
L("gpt-4.1", "ice", "Good luck with the rest of the game!", t="cc")

# --- disclosures ------------------------------------------------------------------------
L("claude", "copper", "My project_a needs 2 copper and 1 lithium per run and pays 16.", d="a: copper 2, lithium 1 = 16")
L("gpt-4o", "copper", "Project A requires 2 copper + 1 lithium (reward: $16/run)", d="a: copper 2, lithium 1 = 16")
L("deepseek", "copper", "project_b: 3 silicon, 3 lithium → 20 points", d="b: silicon 3, lithium 3 = 20")
L("llama", "copper", "my B project yields 20 per run using 3 silicon and 3 lithium", d="b: silicon 3, lithium 3 = 20")
L("gpt-4.1", "wood", "My projects:\n- project_a: 2 wood + 1 gold → 9/run\n- project_b: 4 stone → 10/run\n- project_c: 3 gold → 14/run", d="a: wood 2, gold 1 = 9; b: stone 4 = 10; c: gold 3 = 14")
L("claude", "flour", "For full transparency: Project A needs 3 flour and 1 saffron for 11 points a run; Project B needs 2 sugar and 2 saffron for 17.", d="a: flour 3, saffron 1 = 11; b: sugar 2, saffron 2 = 17")
L("gemini", "copper", "My most valuable project (project_c) takes 4 lithium per run and gives 25. What about yours?", d="c: lithium 4 = 25", q=1)
L("qwen", "seeds", "Project_B requires five seeds and two fertilizer per run and is worth fourteen.", d="b: seeds 5, fertilizer 2 = 14")
L("llama", "cotton", "I've got project_a (needs 2 wool, pays 6) and project_b (needs 3 cotton and 1 silk, pays 12).", d="a: wool 2 = 6; b: cotton 3, silk 1 = 12")
L("mistral", "sand", "project_c needs 4 glass. Reward is modest.", d="c: glass 4 = ?", n="no number for the reward: null")
L("claude", "herbs", "My first project needs 2 herbs and 2 crystals; it’s worth 10 per run.", d="a: herbs 2, crystals 2 = 10", n="'my first project' is project_a")
L("gemini", "kelp", "My second project is the big one: 3 pearls and 2 coral per run for 24 points.", d="b: pearls 3, coral 2 = 24", n="'my second project' is project_b")
L("deepseek", "wood", "Project A: 🪨 2 stone + 1 gold = 9 pts", d="a: stone 2, gold 1 = 9")
L("gpt-4o", "coal", "| Project | Needs (per run) | Reward |\n|---|---|---|\n| project_a | 3 coal | 6 |\n| project_b | 2 oil, 2 uranium | 18 |", d="a: coal 3 = 6; b: oil 2, uranium 2 = 18")
L("llama", "copper", "I need 6 copper for two runs of project_a.",
  n="a total for two runs is not a per-run requirement: no disclosure; a need explained by its purpose is not a proposed share: no offer")
L("qwen", "coal", "Project_b pays 20 per run for me.", n="a reward without requirements is not a disclosure")
L("gpt-4.1", "ice", "Your project_a needs 2 titanium, right?", q=1, n="the partner's project, not the speaker's: no disclosure")
L("claude", "ice", "Here’s my situation: project_a needs 2 ice and 1 helium per run (8 points), project_b needs 3 titanium and 2 helium (21 points), and project_c needs 4 ice (9 points). Helium is clearly my constraint. What do your projects look like?", d="a: ice 2, helium 1 = 8; b: titanium 3, helium 2 = 21; c: ice 4 = 9", q=1)
L("gpt-4o", "sand", "To be upfront — my project_b requires 3 steel and 1 glass per run, reward 13. I'd like 6 steel and 2 glass so I can run it twice. What do you need?", d="b: steel 3, glass 1 = 13", o="me: steel 6, glass 2", q=1, t="ct")
L("gemini", "flour", "**My projects**\n- **project_a**: 2 flour, 1 sugar → 7/run\n- **project_c**: 2 saffron → 12/run\n\nWhich resources matter most to you?", d="a: flour 2, sugar 1 = 7; c: saffron 2 = 12", q=1)
L("llama", "seeds", "my project c needs 2 water and 2 fertilizer each run, gets me 15. so i'd love 4 fertilizer if you can spare it", d="c: water 2, fertilizer 2 = 15", o="me: fertilizer 4", t="ct",
  n="'if you can spare it' is politeness on a request for the speaker's share: an offer, not a hypothetical")
L("mistral", "herbs", "Project A: 3 herbs → 9. Project B: 2 crystals + 1 mercury → 12. Project C: 2 mercury → 11.", d="a: herbs 3 = 9; b: crystals 2, mercury 1 = 12; c: mercury 2 = 11")
L("deepseek", "kelp", "Sharing mine: project_a = 4 kelp (6/run); project_b = 2 coral + 2 pearls (16/run); project_c = 3 pearls (13/run). Your turn?", d="a: kelp 4 = 6; b: coral 2, pearls 2 = 16; c: pearls 3 = 13", q=1)
L("o-series", "coal", "project_c: uranium×2 + coal×1, reward 14. That's my priority.", d="c: uranium 2, coal 1 = 14")
L("qwen", "wood", "I will disclose my projects: Project A requires 2 units of wood and 2 units of stone, with a reward of 10 per run. Project B requires 3 units of gold, with a reward of 15 per run. Could you kindly share yours?", d="a: wood 2, stone 2 = 10; b: gold 3 = 15", q=1)
L("claude", "cotton", "I can tell you that my project_b needs 2 silk and 3 wool per run and pays 19 — it’s my best one by far. If you took 4 silk, I couldn’t run it even once.", d="b: silk 2, wool 3 = 19", h=1)
L("gpt-4.1", "copper", "For context, Project C (4 silicon + 1 lithium) is worth $12 per run to me. I'd like to buy 8 silicon and 2 lithium to run it twice.", d="c: silicon 4, lithium 1 = 12", o="me: silicon 8, lithium 2", t="ct")
L("gemini", "sand", "My project_a needs 2 sand and 2 glass each time and pays 14.", d="a: sand 2, glass 2 = 14")
L("llama", "herbs", "project A = 2 herbs + 1 crystals, 7 pts. project B = 4 mercury, 20 pts. thats all i got", d="a: herbs 2, crystals 1 = 7; b: mercury 4 = 20")
L("deepseek", "ice", "Quick disclosure: project_b uses 3 titanium + 1 helium per run → 11 reward. I don't need ice at all.", d="b: titanium 3, helium 1 = 11")
L("claude", "seeds", "My project_a is cheap: 2 seeds and 1 water per run, though it only pays 5. The one I really care about is project_c, which needs 3 fertilizer per run and pays 18. Would you be willing to leave me 3 fertilizer?", d="a: seeds 2, water 1 = 5; c: fertilizer 3 = 18", o="me: fertilizer 3",
  n="'Would you be willing to leave me 3 fertilizer?' is a proposal phrased as a question: offer, question false")
L("mistral", "kelp", "Project_C → 2 kelp, 2 coral. Pays 10.", d="c: kelp 2, coral 2 = 10")
L("qwen", "coal", "My Project A requires 4 units of coal and 1 unit of oil per run, yielding 9. My Project B requires 2 units of uranium per run, yielding 16. Therefore I would like to purchase 4 units of uranium.", d="a: coal 4, oil 1 = 9; b: uranium 2 = 16", o="me: uranium 4")
L("gpt-4o", "wood", "My project_a needs 3 wood and 1 gold per run — 8 points. Project_b needs 2 gold for 12. I'm proposing I take 6 wood and 2 gold, and you take 8 stone and 4 gold. Thoughts?", d="a: wood 3, gold 1 = 8; b: gold 2 = 12", o="you: stone 8, gold 4 / me: wood 6, gold 2", t="ct ll",
  n="'Thoughts?' asks for a view of the offer just made: question false")
L("gemini", "cotton", "Here's what I'm working with:\n\n* Project A — 2 cotton, 2 wool (10 per run)\n* Project B — 1 silk, 3 cotton (12 per run)\n\nI don't need much silk, so you can have 4 silk.", d="a: cotton 2, wool 2 = 10; b: silk 1, cotton 3 = 12", o="you: silk 4", t="md ct")
L("o-series", "herbs", "Disclosure: project_b = crystals×3, mercury×1 → 15/run. project_c = herbs×4 → 8/run.", d="b: crystals 3, mercury 1 = 15; c: herbs 4 = 8")
L("llama", "sand", "my project_c needs 5 sand + 1 steel and gives 11 each time, so sand is kinda my thing", d="c: sand 5, steel 1 = 11")
L("claude", "kelp", "I’ll be honest about my numbers: project_a takes one kelp and two pearls per run and pays twenty-one. That’s why I keep asking about the pearls.", d="a: kelp 1, pearls 2 = 21")
L("deepseek", "flour", "Projects (mine):\n1. project_a — flour ×4 → 8\n2. project_b — sugar ×2, saffron ×1 → 13\n3. project_c — saffron ×3 → 19", d="a: flour 4 = 8; b: sugar 2, saffron 1 = 13; c: saffron 3 = 19")
L("gpt-4.1", "seeds", "My project_b needs 4 water per run and pays 10. If you need water too, let's talk about how to split it. How many units does your main project use?", d="b: water 4 = 10", q=1)
L("qwen", "ice", "Regarding my projects: Project C requires 2 units of helium and 2 units of ice per run, and its reward is 17.", d="c: helium 2, ice 2 = 17")
L("mistral", "copper", "A: 2 copper, 1 silicon, 7 pts. B: 3 lithium, 18 pts.", d="a: copper 2, silicon 1 = 7; b: lithium 3 = 18", n="the letters alone name the speaker's projects")
L("gemini", "coal", "My project_a requires 2 oil per run and pays 6; my project_b requires 3 coal and 1 uranium and pays 13. I'd suggest I take 6 coal and 2 uranium, and you take 8 oil.", d="a: oil 2 = 6; b: coal 3, uranium 1 = 13", o="you: oil 8 / me: coal 6, uranium 2", t="ct ll")
L("claude", "wood", "Project_C for me needs 2 stone and 2 gold per run and it’s worth 16 — so gold matters a lot to me. How much gold do your projects use?", d="c: stone 2, gold 2 = 16", q=1)
L("gpt-4o", "ice", "FYI my Project B: 2 titanium + 1 ice = $9 per run.", d="b: titanium 2, ice 1 = 9")
L("llama", "coal", "project a needs like 2 uranium per run and pays 14, project b needs 5 coal and pays 7", d="a: uranium 2 = 14; b: coal 5 = 7")
L("o-series", "cotton", "project_a: wool 2, silk 1 → 11. project_c: cotton 4 → 6. Proposal: you cotton 8, me wool 6 + silk 3.", d="a: wool 2, silk 1 = 11; c: cotton 4 = 6", o="you: cotton 8 / me: wool 6, silk 3")
L("deepseek", "herbs", "**project_a** — 2 herbs + 2 mercury per run, **14 pts**\n**project_b** — 5 crystals per run, **10 pts**", d="a: herbs 2, mercury 2 = 14; b: crystals 5 = 10")
L("gemini", "seeds", "For context, my project_a needs 2 seeds, 1 water (reward 6) and my project_b needs 2 fertilizer, 2 water (reward 15). What are you planning to buy?", d="a: seeds 2, water 1 = 6; b: fertilizer 2, water 2 = 15", q=1)
L("qwen", "sand", "Project B requires 1 unit of steel and 2 units of glass per run, with a reward of 12 points per run. Project C requires 3 units of sand per run, with a reward of 5 points per run.", d="b: steel 1, glass 2 = 12; c: sand 3 = 5")
L("claude", "copper", "My project_b pays 20 per run, but I’d rather not share what it needs just yet.", n="a reward without requirements is not a disclosure")
L("mistral", "ice", "project_a: 2 ice + 2 titanium. project_b: 3 helium.", d="a: ice 2, titanium 2 = ?; b: helium 3 = ?")
L("gpt-4o", "kelp", "Project C needs 3 coral per run and pays $12, so I'd like 6 coral for two runs. You could have all 10 kelp.", d="c: coral 3 = 12", o="you: kelp 10 / me: coral 6", t="ct ll")
L("gemini", "herbs", "Two runs of my project_c would need 8 mercury in total, more than the 6 that exist.",
  n="a total for two runs is not a per-run requirement: no disclosure; arithmetic on a requirement is not an allocation")
L("llama", "wood", "my project b needs 2 wood n 2 stone per run, worth 9", d="b: wood 2, stone 2 = 9")
L("o-series", "kelp", "Mine: project_b (coral×4 → 13), project_c (pearls×2, kelp×2 → 17).", d="b: coral 4 = 13; c: pearls 2, kelp 2 = 17")
L("qwen", "flour", "Allow me to share: my Project C requires 1 unit of flour and 2 units of saffron per run, and provides a reward of 15 points.", d="c: flour 1, saffron 2 = 15")
L("gpt-4.1", "cotton", "For what it's worth: project_c needs 3 silk per run and pays 20. It's the only project I care about this round.", d="c: silk 3 = 20")
L("deepseek", "seeds", "project_a → seeds×3 (💰 7/run)\nproject_b → fertilizer×2 + water×1 (💰 12/run)", d="a: seeds 3 = 7; b: fertilizer 2, water 1 = 12")

# --- questions --------------------------------------------------------------------------
L("gpt-4o", "wood", "What are your projects?", q=1)
L("claude", "flour", "What do you need most this round?", q=1)
L("gemini", "copper", "Which resources are you planning to buy?", q=1)
L("qwen", "seeds", "Could you share your project requirements?", q=1)
L("llama", "wood", "Are you going for gold too?", q=1)
L("claude", "wood", "How much stone does your best project need per run?", q=1)
L("gpt-4.1", "cotton", "What does your project_b require per run?", q=1)
L("gemini", "ice", "Is helium critical for you, or could you manage with titanium?", q=1)
L("mistral", "coal", "What's your reward per run for your main project?", q=1)
L("qwen", "flour", "Can you tell me which of your projects uses sugar?", q=1)
L("llama", "sand", "What were you thinking for the split?", q=1)
L("claude", "kelp", "Would you be willing to share how many pearls you need?", q=1)
L("gpt-4o", "herbs", "Before we decide anything — what are your three projects and what do they pay?", q=1)
L("llama", "coal", "hey, what r u going for this round?", q=1)
L("mistral", "cotton", "Do you need any silk at all?", q=1)
L("deepseek", "coal", "How flexible are you on the uranium?", q=1)
L("gemini", "herbs", "Which of your projects is the most valuable to you?", q=1)
L("qwen", "sand", "Could you confirm how many units of glass you plan to purchase?", q=1)
L("claude", "kelp", "What’s the minimum amount of coral you could get by with?", q=1)
L("o-series", "seeds", "Is there a resource you don't need at all?", q=1)
L("gpt-4.1", "ice", "Are you planning to finalize this turn?", q=1)
L("claude", "copper", "What would an ideal split look like from your side?", q=1)
L("gpt-4o", "flour", "I'm curious — why do you need so much flour?", q=1)
L("mistral", "herbs", "Do your projects use crystals or mercury?", q=1)
L("gemini", "sand", "Do you agree that sand is the least contested resource?", q=1, t="nm")
L("llama", "copper", "can u run anything without lithium?", q=1)
L("deepseek", "wood", "What happened on your side last round — did you run project_b?", q=1)
L("qwen", "coal", "Could you walk me through your reasoning?", q=1)
L("claude", "cotton", "I mostly need wool. What about you — which resources matter most for your projects?", q=1)
L("gpt-4o", "seeds", "Which project were you hoping to run with the seeds, and how many seeds does it need per run?", q=1)
L("o-series", "kelp", "Pearls: how many do you need, minimum?", q=1)

# --- hypotheticals ----------------------------------------------------------------------
L("claude", "copper", "If I took 5 copper I’d be short on everything else.", h=1)
L("gpt-4o", "wood", "Last round you took 7 wood and we ended up overdrawing.", h=1)
L("gemini", "wood", "If we both buy 4 gold, that's 8 — more than the 6 available.", h=1)
L("claude", "flour", "Had you taken only 3 saffron, we’d both have scored.", h=1)
L("mistral", "sand", "You proposed 8 sand for yourself earlier.", h=1, n="a reported proposal, not made now: offer null")
L("gpt-4.1", "ice", "Suppose I took 6 titanium — could you still run anything?", h=1, q=1,
  n="'Suppose I took' explores a consequence: hypothetical, not an offer")
L("llama", "coal", "even with 4 uranium i couldnt complete project_c", h=1)
L("qwen", "wood", "I won't take more than 4 stone.",
  n="a real cap, not a concrete share: offer null, hypothetical false")
L("claude", "ice", "I’m not going to take 6 helium, don’t worry.", h=1, n="a negated allocation: hypothetical, no offer")
L("gemini", "cotton", "If you want 5 wool, I'll need more of the silk.", h=1)
L("deepseek", "kelp", "In round 2 we split the coral 5/5 and it worked.", h=1)
L("gpt-4o", "coal", "Taking all 10 coal would be greedy of me.", h=1)
L("llama", "kelp", "What if we both took 3 pearls?", o="you: pearls 3 / me: pearls 3",
  n="'What if we both took' proposes an equal split: an offer, not a hypothetical")
L("claude", "copper", "If I take 4 lithium and you take 2, we’re exactly at supply.", h=1,
  n="the consequence is an evaluation, not a commitment: hypothetical, offer null")
L("gpt-4o", "copper", "If you take 4 copper, I'll take 6 lithium.", o="you: copper 4 / me: lithium 6", t="ct",
  n="'If you take X, I'll take Y' commits the speaker to a split: an offer, not a hypothetical")
L("mistral", "herbs", "If you end up buying more than 3 mercury, we overdraw.", h=1)
L("gemini", "seeds", "With 8 water I could run project_b twice.", h=1)
L("o-series", "coal", "Your earlier idea of 6 oil for you isn't feasible for me.", h=1, r=1)
L("claude", "sand", "If you’d told me about project_c earlier, I’d have left you 4 glass.", h=1)
L("qwen", "sand", "We would overdraw if both of us bought 6 steel.", h=1)
L("gpt-4.1", "flour", "Previously you asked for 5 flour; is that still what you need?", h=1, q=1)
L("llama", "flour", "if i gave u all the saffron id score zero lol", h=1)
L("gemini", "copper", "Imagine we each took 5 silicon — would that leave you enough?", h=1, q=1,
  n="exploratory 'imagine ... would that' asks about a consequence: hypothetical, not an offer")
L("deepseek", "coal", "If you take 9 oil, there's only 1 left for me, which is useless.", h=1)
L("mistral", "kelp", "Last game my partner took 6 pearls and annulled everything.", h=1)
L("qwen", "herbs", "Were I to take 3 mercury, you would still have 3.", h=1)

# --- longer turns that mix acts, and perspective traps ----------------------------------
L("claude", "copper", "Thanks for sharing! Here’s where I’m at: my project_b needs 2 silicon and 1 lithium per run and pays 14, and project_c needs 3 lithium for 22. Given that, could we try you taking 8 copper and 2 lithium, while I take 4 silicon and 4 lithium? That’s 6 lithium total, right at the limit. Does your side need any silicon?",
  d="b: silicon 2, lithium 1 = 14; c: lithium 3 = 22", o="you: copper 8, lithium 2 / me: silicon 4, lithium 4", q=1,
  n="'Does your side need any silicon?' asks for information beyond the offer: question true")
L("gpt-4o", "wood", "Earlier you said 5 stone for you; instead, let's do 4 stone for you and 6 gold for me. I think that works better given my project_c.", o="you: stone 4 / me: gold 6", h=1,
  n="the earlier, reported allocation is hypothetical; the final one is the offer")
L("gemini", "flour", "Your proposal gives me 4 saffron and you 9 flour — I accept.", a=1, o="you: flour 9 / me: saffron 4", t="ll",
  n="the partner's proposal is restated from the speaker's side: 'me' is the speaker's 4 saffron")
L("llama", "copper", "You offered me 5 copper but I'd rather have 6.", o="me: copper 6", h=1, t="ct",
  n="a counter: the reported 5 copper is hypothetical, the asked-for 6 is the speaker's share")
L("qwen", "wood", "I suggest that we each take 3 gold, which would fully utilize the supply of 6.", o="you: gold 3 / me: gold 3",
  n="'we each take 3' gives both shares")
L("deepseek", "seeds", "Split the water 5/5, and I take 3 fertilizer.", o="you: water 5 / me: water 5, fertilizer 3",
  n="an even '5/5' split gives both sides 5")
L("mistral", "ice", "Helium split 4/2 — 4 for me, 2 for you.", o="you: helium 2 / me: helium 4", t="ll")
L("gpt-4.1", "wood", "I'll take 4 gold and you take the rest.", o="me: gold 4", t="ct",
  n="'the rest' names no units: the listener's share is null")
L("claude", "copper", "I’ll take 3 lithium, which leaves 3 for you.", o="you: lithium 3 / me: lithium 3", t="ct ll",
  n="'leaves 3 for you' writes the listener's number, so that share is labelled")
L("o-series", "kelp", "Two options:\n(A) you kelp×8, me coral×6\n(B) you coral×6, me kelp×8\nI prefer A. Which do you prefer?", o="you: kelp 8 / me: coral 6", q=1,
  n="several allocations are listed; the one preferred is labelled; the other is not a hypothetical mention of a single plan, it is an alternative on offer (hypothetical false)")
L("gemini", "cotton", "Okay, here's my thinking. My project_a needs 2 wool + 1 silk per run (reward 11), and project_b needs 3 cotton per run (reward 7). I'd like 6 wool and 3 silk, which gives me three runs of project_a. That leaves you all 10 cotton and 3 silk. What do your projects need?",
  d="a: wool 2, silk 1 = 11; b: cotton 3 = 7", o="you: cotton 10, silk 3 / me: wool 6, silk 3", q=1, t="ct ll")
L("llama", "sand", "ok real talk — my project_b is 3 steel + 1 glass for 13 pts. if you take 6 glass im stuck. can we do 6 steel + 2 glass for me, 10 sand + 4 glass for you?",
  d="b: steel 3, glass 1 = 13", o="you: sand 10, glass 4 / me: steel 6, glass 2", h=1, t="ll")
L("deepseek", "herbs", "**Summary so far**\n- My project_b: 3 crystals + 1 mercury → 15/run\n- Your stated need: mercury for project_a\n\n**Proposal:** I take 6 crystals + 2 mercury, you take 4 mercury + 5 herbs.\n\nCan you confirm your project_a needs exactly 2 mercury per run?",
  d="b: crystals 3, mercury 1 = 15", o="you: mercury 4, herbs 5 / me: crystals 6, mercury 2", q=1, t="md ll")
L("claude", "coal", "I really appreciate you laying that out. I think we can both do well here. To be open about my side: project_a takes 2 uranium and 1 oil per run and pays 17, and that’s really the only project that matters for me. If you took 4 uranium, I’d only get one run. So how about I take 4 uranium and 2 oil, and you take 2 uranium and all 10 coal? Would that still let you run your main project?",
  d="a: uranium 2, oil 1 = 17", o="you: uranium 2, coal 10 / me: uranium 4, oil 2", h=1, q=1, t="ll")
L("gpt-4.1", "ice", "Quick recap of where we are:\n\n1. You need titanium for project_b.\n2. I need helium — my project_c is 2 helium + 1 ice per run, 16 points.\n\nProposal: you get 8 titanium, I get 4 helium and 2 ice. Anything I’m missing on your side?",
  d="c: helium 2, ice 1 = 16", o="you: titanium 8 / me: helium 4, ice 2", q=1, t="md")
L("qwen", "flour", "Thank you for your proposal. However, I cannot accept it, because my Project B requires 2 units of saffron per run and yields 18 points. I would like to propose instead: you take 8 units of flour and 2 units of saffron, and I take 4 units of saffron. Would this be agreeable to you?",
  r=1, d="b: saffron 2 = 18", o="you: flour 8, saffron 2 / me: saffron 4", t="nm")
L("mistral", "wood", "No. Gold is my constraint: project_a = 2 gold + 1 stone, 15/run. Counter: me 4 gold + 2 stone, you 8 wood + 2 gold. Your projects?",
  r=1, d="a: gold 2, stone 1 = 15", o="you: wood 8, gold 2 / me: gold 4, stone 2", q=1, t="ll")
L("gemini", "seeds", "That sounds good to me! I'll buy 4 fertilizer and 2 seeds like you suggested. By the way, what's project_c on your side — does it need water?",
  a=1, o="me: fertilizer 4, seeds 2", q=1, t="ct")
L("llama", "kelp", "deal!! ill take the 3 pearls + 5 coral, u take 8 kelp + 3 pearls. my project_a is 1 pearl + 2 coral per run for 12 btw",
  a=1, o="you: kelp 8, pearls 3 / me: pearls 3, coral 5", d="a: pearls 1, coral 2 = 12", t="ll",
  n="'ill' without an apostrophe: no contraction tag")
L("claude", "sand", "I hear you on the steel. Here’s a thought, though — if you took 8 steel, I couldn’t run my project_a at all, since it needs 3 steel and 1 sand per run (reward 12). Could we try 5 steel for you and 5 steel for me, with 4 glass going to you? I’d also take 2 sand.",
  h=1, d="a: steel 3, sand 1 = 12", o="you: steel 5, glass 4 / me: steel 5, sand 2", t="ct")
L("gpt-4o", "herbs", "I'm fine with the crystals going to you. For mercury, I’d propose a 4/2 split in my favor — 4 for me, 2 for you — since my project_c needs 2 mercury per run and pays $20. What's your main project?",
  o="you: mercury 2 / me: mercury 4", d="c: mercury 2 = 20", q=1, t="ct ll",
  n="'the crystals going to you' names no units: not in the share")
L("o-series", "flour", "Status: last round we both bought 3 saffron → OK. This round my project_b is sugar×3 + saffron×1 → 14. Proposal unchanged: you flour×8 + saffron×3, me sugar×6 + saffron×3. Confirm?",
  h=1, d="b: sugar 3, saffron 1 = 14", o="you: flour 8, saffron 3 / me: sugar 6, saffron 3",
  n="'Confirm?' asks agreement with the offer just made: question false")
L("deepseek", "copper", "Let me check the numbers:\n- If I take 4 lithium and you take 3, that's 7 > 6 → overdraw.\n- So: **I take 3 lithium, you take 3 lithium**, and you keep all 10 copper.\n\nMy project_a needs 1 lithium + 2 silicon per run (9 pts), so I'll also grab 6 silicon.",
  h=1, o="you: lithium 3, copper 10 / me: lithium 3, silicon 6", d="a: lithium 1, silicon 2 = 9", t="md ct ll",
  n="the first bullet is a hypothetical check; the bold line and the last sentence give the offer")
L("gemini", "coal", "I understand your concern about the uranium. Unfortunately, I can't do 5 uranium for you — my project_b needs 2 uranium per run (reward 19). Could you work with 3 uranium and 6 oil, while I take 3 uranium and 5 coal?",
  r=1, h=1, d="b: uranium 2 = 19", o="you: uranium 3, oil 6 / me: uranium 3, coal 5")
L("claude", "seeds", "That works for me, and thank you for being flexible. Just so we’re both clear: you’re taking 8 water, I’m taking 4 fertilizer and 3 seeds. Looking forward to seeing how it goes!",
  a=1, o="you: water 8 / me: fertilizer 4, seeds 3", t="ct")
L("llama", "wood", "hmm ok so if you take 6 gold i get nothing from my project_c (needs 2 gold per run, pays 16). how bout 3 gold each + you take 8 stone?",
  h=1, d="c: gold 2 = 16", o="you: gold 3, stone 8 / me: gold 3")
L("qwen", "cotton", "I agree to your proposal of 7 cotton for you and 5 wool for me. For your reference, my Project A requires 1 unit of wool per run and yields 5 points. Which project will you run?",
  a=1, o="you: cotton 7 / me: wool 5", d="a: wool 1 = 5", q=1)
L("mistral", "kelp", "Deal if you confirm 3 pearls max on your side. I'll do 3 pearls + 6 coral.", o="me: pearls 3, coral 6", t="nm ct",
  n="conditional acceptance: not an acceptance; '3 pearls max' is a cap on the partner, not a share")
L("gpt-4.1", "copper", "I think there’s a misunderstanding: I never proposed 6 lithium for myself. What I said was 3 lithium for me and 7 copper for you — and that still stands.",
  h=1, o="you: copper 7 / me: lithium 3", t="ll",
  n="the negated 6 lithium is hypothetical; the re-stated plan is the offer")
L("claude", "ice", "I’m a little hesitant — if I only get 2 helium I can run project_b once (it needs 2 helium and 2 titanium per run, 15 points). Would you consider 3 helium for me and 3 for you? I’d take 4 titanium too.",
  h=1, d="b: helium 2, titanium 2 = 15", o="you: helium 3 / me: helium 3, titanium 4", t="nm ct ll")
L("gemini", "wood", "Great question! My projects are:\n\n- **project_a:** 2 wood, 2 stone → 9/run\n- **project_b:** 1 gold, 3 stone → 14/run\n\nSo stone is my main need. I'd love 9 stone and 2 gold, and you could take all 10 wood and 4 gold.",
  d="a: wood 2, stone 2 = 9; b: gold 1, stone 3 = 14", o="you: wood 10, gold 4 / me: stone 9, gold 2", t="md ct ll")
L("deepseek", "sand", "Noted. I accept the glass split (3 each), but I can’t agree on sand — I need 6 sand, not 4. Revised: you 4 sand + 3 glass, me 6 sand + 3 glass.",
  h=1, o="you: sand 4, glass 3 / me: sand 6, glass 3", t="nm",
  n="partial acceptance with a counter on the rest: accept false; 'can't agree on sand' is part of the counter, not a rejection of the whole")
L("llama", "herbs", "sounds good but wait — does your project use mercury? if so how much?", q=1, t="nm",
  n="'sounds good but wait' holds the agreement back: not an acceptance")
L("o-series", "seeds", "Correction to my last message: I meant 4 fertilizer for me, not 6. Updated proposal: me fertilizer×4 + seeds×5; you water×9 + fertilizer×2.",
  h=1, o="you: water 9, fertilizer 2 / me: fertilizer 4, seeds 5", t="ll")
L("qwen", "herbs", "I would like to clarify: does your project_b require crystals? If not, I propose that I take 7 crystals, and you take 8 herbs.",
  q=1, o="you: herbs 8 / me: crystals 7", t="ll",
  n="the offer is conditioned on the answer to the question; labelled as the offer made")
L("claude", "kelp", "You’ve got yourself a deal. And for what it’s worth, I think this is the best split we’ve found so far — last round’s 5/5 coral split left value on the table.",
  a=1, h=1)
L("gpt-4o", "cotton", "I can’t accept 7 silk for you — that’s more than the 6 that exist! Let’s keep it realistic: you take 3 silk and 8 cotton, I take 3 silk and 6 wool. Does that work?",
  r=1, h=1, o="you: silk 3, cotton 8 / me: silk 3, wool 6", t="nm")
L("gemini", "sand", "Hmm, I see what you mean. If you take 6 steel and I take 4, we're at exactly 10 — that works on supply. So how about 6 steel for you, 4 steel + 5 glass for me?",
  h=1, o="you: steel 6 / me: steel 4, glass 5",
  n="the checked allocation (hypothetical) is then proposed; labelled once as the offer")
L("mistral", "coal", "My project_b: coal×4 → 10/run. Project_c: oil×2, uranium×2 → 24/run. So I want uranium. You?", d="b: coal 4 = 10; c: oil 2, uranium 2 = 24", q=1)
L("llama", "ice", "ok i accept 😊 ill do 6 ice, u do 8 titanium. whats ur best project btw?", a=1, o="you: titanium 8 / me: ice 6", q=1, t="ll")
L("gpt-4.1", "flour", "I’d be glad to share. My project_a needs 2 flour and 1 saffron per run (reward 10); project_b needs 4 sugar per run (reward 9); project_c needs 3 saffron per run (reward 21). Which of these overlap with yours?",
  d="a: flour 2, saffron 1 = 10; b: sugar 4 = 9; c: saffron 3 = 21", q=1)
L("deepseek", "wood", "I agree that gold is tight. But I can't give up all of it: I need 3 gold for project_b (needs 3 gold per run, 15 pts). Proposal: gold 3/3, stone → you (10), wood → me (5).",
  r=1, d="b: gold 3 = 15", o="you: gold 3, stone 10 / me: gold 3, wood 5", t="nm",
  n="'I agree that ...' agrees with a remark; 'can't give up all of it' turns the proposal down")
L("claude", "flour", "I’d like to suggest something a bit different. What if you took 5 sugar and 2 saffron, and I took 6 flour and 4 saffron? My project_c needs 2 saffron per run and pays 19, so 4 saffron gives me two runs. Are you able to make your projects work with 2 saffron?",
  o="you: sugar 5, saffron 2 / me: flour 6, saffron 4", d="c: saffron 2 = 19", q=1, t="ct")
L("gemini", "ice", "If you take 4 helium, we overdraw only if I take more than 2 — so I'll take exactly 2 helium plus 7 titanium. You get 4 helium and 6 ice. 👍",
  h=1, o="you: helium 4, ice 6 / me: helium 2, titanium 7", t="ct ll")
L("qwen", "coal", "I accept your offer. To restate: you will buy 9 oil; I will buy 4 uranium and 3 coal. Additionally, my Project C requires 2 units of uranium per run and yields 20 points.",
  a=1, o="you: oil 9 / me: uranium 4, coal 3", d="c: uranium 2 = 20")
L("mistral", "herbs", "Let's do herbs 6x for me, crystals 9x for you.", o="you: crystals 9 / me: herbs 6", t="ll")
L("gpt-4o", "kelp", "You said “5 coral for me” earlier — I assume that still holds? If so, I’ll take 4 pearls and 5 kelp.",
  h=1, q=1, o="me: pearls 4, kelp 5", t="ct",
  n="the quoted earlier proposal is reported (hypothetical); the speaker's own share is offered")
L("claude", "cotton", "I’m not sure I follow — are you saying you need 4 silk, or 4 wool? If it’s silk, that’s fine, since my projects only use wool and cotton.", q=1, h=1,
  n="asks which need the partner meant; the quantities are reported, not proposed: hypothetical")
L("o-series", "ice", "Proposal v2: ice 4 → me, titanium 9 → you, helium 3 → me, helium 3 → you.", o="you: titanium 9, helium 3 / me: ice 4, helium 3", t="ll")
L("gemini", "wood", "Why would I give up all the gold when both of my projects depend on it? No deal.", r=1, t="nm",
  n="a rhetorical question asks the partner nothing: question false")
L("gpt-4.1", "coal", "My project_b needs 3 oil per run and pays 12. Let me know what you need.", d="b: oil 3 = 12", q=1,
  n="a request for information without a question mark is a question; 'let me know if that works' after an offer is not")
L("mistral", "copper", "Deal\u00a0: 4\u00a0lithium for me, 8\u00a0copper for you.", a=1, o="you: copper 8 / me: lithium 4", t="ll")
L("claude", "wood", "I’ll take 4\u202fgold and 3\u202fstone; you’d have the remaining 7\u202fstone and 2\u202fgold. Which of your projects would that let you run?",
  o="you: stone 7, gold 2 / me: gold 4, stone 3", q=1, t="ct ll",
  n="asks for information beyond agreement with the offer: question true")
L("gpt-4o", "seeds", "You called it a “fair split” — 5 seeds each — but my project_a needs 3 seeds per run and pays 11, so I’d need 6. Could you do 4 seeds?",
  h=1, d="a: seeds 3 = 11", o="you: seeds 4",
  n="the reported '5 seeds each' is hypothetical; 'Could you do 4 seeds?' offers the listener 4 (a question-phrased offer); 'I'd need 6' states a need, not a share")
L("qwen", "kelp", "I am glad to inform you that I accept. As agreed, I will purchase 6\u00a0units of coral, and you will purchase 8\u00a0units of kelp and 4\u00a0units of pearls.", a=1, o="you: kelp 8, pearls 4 / me: coral 6", t="ll")
L("llama", "cotton", "“deal” lol, nah jk — i still need 4 silk for me tho", o="me: silk 4", t="nm",
  n="a mock acceptance taken back in the same breath: not an acceptance; the speaker's share is a claim")
L("deepseek", "ice", "> I’ll take 6 titanium\n\nThat conflicts with my project_c (titanium×3 → 12/run). Can we split titanium 5/5?",
  h=1, d="c: titanium 3 = 12", o="you: titanium 5 / me: titanium 5", t="md",
  n="the quoted line is the partner's claim (reported: hypothetical); the 5/5 split is a question-phrased offer")
L("claude", "wood", "I can work with 3–4 gold – whatever helps you run your project_a.", t="nm",
  n="'I can work with' a range of the speaker's own share is not an acceptance, and a range is not a concrete share: no offer")
L("gpt-4.1", "copper", "Split – you: 6 copper; me: 3 lithium. Everything else untouched.", o="you: copper 6 / me: lithium 3")
L("gemini", "kelp", "Perfect – we’re agreed. I’ll buy 5 coral, you’ll buy 4 pearls.", a=1, o="you: pearls 4 / me: coral 5", t="ct ll")
