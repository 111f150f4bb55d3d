// Our own word lists. LIWC (used by Ireland & Pennebaker 2010) is licensed against commercial use,
// so the nine function-word categories of Language Style Matching are rebuilt here from their
// published definitions with common English words. Contractions are listed as tokens (the
// tokenizer keeps "don't" whole) and may sit in several categories, as in LIWC.

const words = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/** The nine LSM categories, in the paper's order. Keys are stable: evidence and documents use them. */
export const FUNCTION_WORD_CATEGORIES = {
  personalPronouns: words(`
    i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
    himself she her hers herself they them their theirs themselves i'm i've i'll i'd we're we've
    we'll we'd you're you've you'll you'd he's he'd he'll she's she'd she'll they're they've
    they'll they'd y'all let's`),
  impersonalPronouns: words(`
    it its itself it's it'll it'd that this these those that's this's anything anybody anyone
    something somebody someone everything everybody everyone nothing nobody what which whatever
    whichever whoever who whom whose what's who's another other others`),
  articles: words('a an the'),
  auxiliaryVerbs: words(`
    am is are was were be been being have has had having do does did will would shall should can
    could may might must i'm you're we're they're he's she's it's that's i've you've we've
    they've i'll you'll we'll they'll he'll she'll it'll i'd you'd we'd they'd he'd she'd isn't
    aren't wasn't weren't don't doesn't didn't won't wouldn't can't cannot couldn't shouldn't
    haven't hasn't hadn't mustn't ain't gonna gotta wanna`),
  adverbs: words(`
    very really just so too also only even now then here there again already still always often
    quite almost actually pretty rather sometimes usually soon ever yet once maybe perhaps
    probably definitely totally exactly simply basically literally`),
  prepositions: words(`
    about above across after against along among around at before behind below beneath beside
    besides between beyond by down during except for from in inside into near of off on onto out
    outside over past through throughout till to toward towards under underneath until up upon
    with within without via per`),
  conjunctions: words(`
    and but or nor because although though as if unless whereas while whether than since when
    whenever where wherever however yet plus either neither also so cos cuz`),
  negations: words(`
    no not never none nobody nothing nowhere neither nor nope nah without ain't aren't can't
    cannot couldn't didn't doesn't don't hadn't hasn't haven't isn't mustn't shouldn't wasn't
    weren't won't wouldn't`),
  quantifiers: words(`
    all any both each every few lots lot many more most much several some half enough less least
    plenty whole entire various numerous little fewer loads bunch`),
} as const satisfies Record<string, ReadonlySet<string>>;

export type FunctionWordCategory = keyof typeof FUNCTION_WORD_CATEGORIES;

export const FUNCTION_WORD_CATEGORY_KEYS = Object.keys(FUNCTION_WORD_CATEGORIES) as FunctionWordCategory[];

/** Human names of the categories, for documents. */
export const FUNCTION_WORD_CATEGORY_NAMES: Record<FunctionWordCategory, string> = {
  personalPronouns: 'personal pronouns',
  impersonalPronouns: 'impersonal pronouns',
  articles: 'articles',
  auxiliaryVerbs: 'auxiliary verbs',
  adverbs: 'high-frequency adverbs',
  prepositions: 'prepositions',
  conjunctions: 'conjunctions',
  negations: 'negations',
  quantifiers: 'quantifiers',
};

export const FIRST_PERSON_SINGULAR = words("i me my mine myself i'm i've i'll i'd");
export const FIRST_PERSON_PLURAL = words("we us our ours ourselves we're we've we'll we'd let's");

/**
 * Hedges (Lakoff 1973; Hyland 1998): tentative words and phrases. Phrases are matched on the
 * token sequence, so "kind of" counts once and its words are not counted again.
 */
export const HEDGE_PHRASES: readonly string[][] = [
  'i think', 'i guess', 'i suppose', 'i believe', 'i feel like', 'sort of', 'kind of', 'i mean',
  'not sure', 'it seems', 'more or less', 'in a way', 'you know', 'a little bit', 'i would say',
].map((p) => p.split(' '));

export const HEDGE_WORDS = words(`
  maybe perhaps probably possibly apparently seemingly somewhat kinda sorta arguably presumably
  likely unlikely roughly approximately basically guess seems`);

/** Openings that make an unpunctuated utterance a question (used only without "?" marks). */
export const QUESTION_OPENERS = words(`
  who what when where why how which whose whom is are was were do does did can could will would
  should shall may might have has had isn't aren't don't doesn't didn't can't won't wouldn't`);
