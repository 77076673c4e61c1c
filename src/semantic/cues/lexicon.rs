//! The lexicon of the text cues, as data: the trigger words with the checks each calls for, and
//! the cue patterns, each compiled the first time a text needs it.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use regex::Regex;
use std::sync::{LazyLock, OnceLock};

/// Which checks a trigger word calls for.
pub(super) const TAG: u8 = 1;
pub(super) const CONCEAL: u8 = 2;
pub(super) const OVERRIDE: u8 = 4;
pub(super) const EXFIL: u8 = 8;
pub(super) const TOOLS: u8 = 16;
pub(super) const REMOTE: u8 = 32;
/// A verb of telling: what concealment of the model's own doing negates.
pub(super) const TELL: u8 = 64;
/// A secret named by its kind ("your API keys", "private key material"): the words of PI004
/// beyond the file names and the "all … / every …" forms.
pub(super) const SECRET: u8 = 128;

/// Trigger words, each with the checks it calls for: every cue contains one (ASCII
/// case-insensitive, at the start of a word).
pub(super) const ANCHORS: &[(&str, u8)] = &[
    ("<important", TAG),
    ("</important", TAG),
    ("<system", TAG),
    ("</system", TAG),
    ("[inst]", TAG),
    ("[/inst]", TAG),
    ("<<sys>>", TAG),
    ("<|im_start|>", TAG),
    ("<|system|>", TAG),
    ("<instructions", TAG),
    ("tell", CONCEAL | TELL),
    ("mention", CONCEAL | TELL),
    ("inform", CONCEAL | TELL),
    ("notify", CONCEAL | TELL),
    ("reveal", CONCEAL | TELL),
    ("disclose", CONCEAL | TELL),
    ("without", CONCEAL),
    ("hide", CONCEAL),
    ("conceal", CONCEAL),
    ("from the user", CONCEAL),
    ("let the user", CONCEAL),
    ("let your user", CONCEAL),
    ("from your user", CONCEAL),
    ("silently", CONCEAL),
    ("quietly", CONCEAL),
    ("acknowledg", CONCEAL | TELL),
    ("admit", CONCEAL | TELL),
    ("surface", CONCEAL | TELL),
    ("let on", CONCEAL | TELL),
    ("secretly", CONCEAL),
    ("covertly", CONCEAL),
    ("user must", CONCEAL),
    ("user should", CONCEAL),
    ("ignore", OVERRIDE),
    ("disregard", OVERRIDE),
    ("forget", OVERRIDE),
    ("override", OVERRIDE),
    ("supersede", OVERRIDE),
    ("precedence", OVERRIDE),
    ("priority over", OVERRIDE),
    ("no longer", OVERRIDE),
    ("bypass", OVERRIDE),
    ("actual instructions", OVERRIDE),
    ("real instructions", OVERRIDE),
    ("true instructions", OVERRIDE),
    ("new instructions", OVERRIDE),
    ("updated instructions", OVERRIDE),
    ("previous instructions", OVERRIDE),
    ("prior instructions", OVERRIDE),
    ("earlier instructions", OVERRIDE),
    ("original instructions", OVERRIDE),
    ("prior guidance", OVERRIDE),
    ("previous guidance", OVERRIDE),
    ("you are now", OVERRIDE),
    // The same order in the languages attack texts are written in most after English: Spanish,
    // Portuguese, Italian, French ("ignorer" is found by "ignore"), German, Chinese, Japanese,
    // Korean.
    ("ignora", OVERRIDE),
    ("ignorier", OVERRIDE),
    ("olvid", OVERRIDE),
    ("oubli", OVERRIDE),
    ("vergiss", OVERRIDE),
    ("vergess", OVERRIDE),
    ("esquec", OVERRIDE),
    ("dimentica", OVERRIDE),
    ("忽略", OVERRIDE),
    ("无视", OVERRIDE),
    ("無視", OVERRIDE),
    ("忘记", OVERRIDE),
    ("忘記", OVERRIDE),
    ("忘掉", OVERRIDE),
    ("忘れ", OVERRIDE),
    ("무시", OVERRIDE),
    ("잊", OVERRIDE),
    ("from now on", OVERRIDE),
    (".ssh", EXFIL),
    ("id_rsa", EXFIL),
    ("id_ed25519", EXFIL),
    ("id_ecdsa", EXFIL),
    (".env", EXFIL),
    ("mcp.json", EXFIL),
    ("claude_desktop_config", EXFIL),
    ("credentials", EXFIL | SECRET),
    (".npmrc", EXFIL),
    (".netrc", EXFIL),
    (".pypirc", EXFIL),
    ("/etc/passwd", EXFIL),
    ("/etc/shadow", EXFIL),
    (".kube/config", EXFIL),
    (".docker/config", EXFIL),
    (".gnupg", EXFIL),
    ("keychain", EXFIL),
    ("wallet.dat", EXFIL),
    ("login data", EXFIL),
    ("cookies", EXFIL),
    ("environment variables", EXFIL),
    ("api key", EXFIL | SECRET),
    ("access key", EXFIL | SECRET),
    ("secret key", EXFIL | SECRET),
    ("private key", EXFIL | SECRET),
    ("seed phrase", EXFIL | SECRET),
    ("recovery phrase", EXFIL | SECRET),
    ("passwords", EXFIL | SECRET),
    ("your token", EXFIL | SECRET),
    ("printenv", EXFIL),
    ("os.environ", EXFIL),
    ("system prompt", EXFIL | OVERRIDE),
    ("conversation log", EXFIL | SECRET),
    ("conversation history", EXFIL | SECRET),
    ("conversation transcript", EXFIL | SECRET),
    ("conversation", EXFIL),
    ("upload the conversation", EXFIL | SECRET),
    ("uploads the conversation", EXFIL | SECRET),
    ("contents of the environment", EXFIL | SECRET),
    ("chat history", EXFIL),
    ("this tool is", TOOLS),
    ("tool must", TOOLS),
    ("tool should", TOOLS),
    ("tool has to", TOOLS),
    ("tool needs to", TOOLS),
    ("tool shall", TOOLS),
    ("other tool", TOOLS),
    ("other function", TOOLS),
    ("when using", TOOLS),
    ("when calling", TOOLS),
    ("when invoking", TOOLS),
    ("when you use", TOOLS),
    ("when you call", TOOLS),
    ("when sending", TOOLS),
    ("all tools", TOOLS),
    ("any tool", TOOLS),
    ("every tool", TOOLS),
    ("each tool", TOOLS),
    ("instead of", TOOLS),
    ("rather than", TOOLS),
    ("this tool", TOOLS),
    ("curl", REMOTE),
    ("wget", REMOTE),
    ("iwr", REMOTE),
    ("irm", REMOTE),
    ("invoke-webrequest", REMOTE),
    ("invoke-restmethod", REMOTE),
    ("base64", REMOTE),
    ("/dev/tcp/", REMOTE),
];

/// A compiled pattern. Patterns are constants of this room, never input; the tests compile every
/// one, so the panic can only be a defect of this room.
pub(super) fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| panic!("a text-cue pattern does not compile: {e}"))
}

/// The verbs of sending, moving or running something, shared by the patterns of concealment.
const VERBS_SEND: &str = r"send|upload|forward|copy|transmit|post|email|bcc|cc|attach|share|exfiltrate|leak|redirect|install|download|execute|include|append|retrieve|collect|gather|harvest|grab";

/// The words of concealment, kept as data: each list is the union of the verbs, negations and
/// objects of the published tool-poisoning and skill-concealment payloads (Invariant Labs'
/// tool-poisoning write-up, the Agent Threat Rules test cases, scanners' public fixtures) and
/// their paraphrases (synonyms and inflections), so that the structure decides, not the wording.
///
/// Verbs of telling or showing: what a concealment order negates ("never *reveal*…").
const TELL_VERBS: &[&str] = &[
    "tell",
    "mention",
    "inform",
    "notify",
    "alert",
    "reveal",
    "disclose",
    "show",
    "say",
    "explain",
    "report",
    "admit",
    "acknowledge",
    "surface",
    "indicate",
    "let on",
    "bring up",
    "display",
];
/// How an order negates a verb of telling ("do not", "there is no need to", "refrain from").
const TELL_NEGATIONS: &[&str] = &[
    r"do\s+not",
    r"don'?t",
    "never",
    r"must\s+not",
    r"mustn'?t",
    r"should\s+not",
    r"shouldn'?t",
    r"no\s+need\s+to",
    "avoid",
    r"refrain\s+from",
    "without",
    r"not\s+to",
];
/// The agent's own doing after "you" ("the files *you read*", "that *you ran* it"): the verbs of
/// acting on files, commands, tools and data.
const OWN_ACTS: &[&str] = &[
    "read",
    "ran",
    "run",
    "did",
    "do",
    "made",
    "sent",
    "send",
    "wrote",
    "write",
    "took",
    "used",
    "use",
    "called",
    "call",
    r"collect\w*",
    r"access\w*",
    r"fetch\w*",
    r"open\w*",
    r"need\w*",
    r"includ\w*",
    r"invok\w*",
    r"execut\w*",
    r"upload\w*",
    r"modif\w*",
    r"chang\w*",
    r"creat\w*",
    r"add\w*",
    r"delet\w*",
    r"perform\w*",
    r"retriev\w*",
    r"gather\w*",
    r"obtain\w*",
    r"load\w*",
    "found",
    r"check\w*",
    r"contact\w*",
    r"forward\w*",
    r"shar\w*",
];
/// What a step of the agent's is called when a concealment order names it ("this *step*").
const OWN_NOUNS: &[&str] = &[
    "step",
    "steps",
    "instruction",
    "instructions",
    "action",
    "actions",
    "call",
    "calls",
    "request",
    "requests",
    "operation",
    "operations",
    "note",
    "sidenote",
    "file",
    "files",
    "part",
    "process",
    "behavior",
    "behaviour",
    "ran",
    "happened",
    "was",
    "is",
    "exists",
    "occurred",
    "tool",
    "check",
    "precondition",
    "requirement",
    "detail",
    "details",
];

fn alternation(words: &[&str]) -> String {
    words.join("|").replace(' ', r"\s+")
}

/// Verbs that move data somewhere: what an exfiltration order does with a secret.
const TRANSFER_VERBS: &[&str] = &[
    "pass",
    "send",
    "include",
    "put",
    "paste",
    "append",
    "embed",
    "add",
    "upload",
    "post",
    "forward",
    "attach",
    "copy",
    "insert",
    "encode",
    "provide",
    "supply",
    "submit",
    "transmit",
    "share",
    "leak",
    "exfiltrate",
    "bcc",
    "cc",
];

/// A cue pattern, compiled the first time a text needs it.
macro_rules! pattern {
    ($pattern:expr $(,)?) => {
        LazyLock::new(|| compile($pattern))
    };
}

/// The cue patterns, each compiled the first time a text needs it: most texts need a few, and
/// two threads that need different ones compile them at once instead of one waiting for all.
pub(super) struct Patterns {
    pub(super) tag: LazyLock<Regex>,
    pub(super) tag_description: LazyLock<Regex>,
    pub(super) conceal_tell: LazyLock<Regex>,
    pub(super) conceal_own: LazyLock<Regex>,
    pub(super) own_audience: LazyLock<Regex>,
    pub(super) own_start: LazyLock<Regex>,
    pub(super) own_you: LazyLock<Regex>,
    pub(super) conceal_without: LazyLock<Regex>,
    pub(super) conceal_hide: LazyLock<Regex>,
    pub(super) conceal_let: LazyLock<Regex>,
    pub(super) conceal_user: LazyLock<Regex>,
    pub(super) conceal_silent: LazyLock<Regex>,
    pub(super) override_ignore: LazyLock<Regex>,
    pub(super) override_system: LazyLock<Regex>,
    pub(super) override_yours: LazyLock<Regex>,
    pub(super) override_now_strong: LazyLock<Regex>,
    pub(super) override_now: LazyLock<Regex>,
    pub(super) override_rank: LazyLock<Regex>,
    pub(super) override_void: LazyLock<Regex>,
    pub(super) override_safety: LazyLock<Regex>,
    pub(super) override_foreign: LazyLock<Regex>,
    pub(super) exfil_forward: LazyLock<Regex>,
    pub(super) sensitive: LazyLock<Regex>,
    pub(super) sensitive_weak: LazyLock<Regex>,
    pub(super) sensitive_named: LazyLock<Regex>,
    pub(super) transfer: LazyLock<Regex>,
    pub(super) sink: LazyLock<Regex>,
    pub(super) read: LazyLock<Regex>,
    pub(super) network_command: LazyLock<Regex>,
    pub(super) environment_dump: LazyLock<Regex>,
    pub(super) shell_runs_fetched: LazyLock<Regex>,
    pub(super) shadow_available: LazyLock<Regex>,
    pub(super) shadow_all: LazyLock<Regex>,
    pub(super) shadow_named: LazyLock<Regex>,
    pub(super) shadow_tool_must: LazyLock<Regex>,
    pub(super) directive: LazyLock<Regex>,
    pub(super) steer_instead: LazyLock<Regex>,
    pub(super) steer_phrase: LazyLock<Regex>,
    pub(super) topic: LazyLock<Regex>,
    pub(super) negation: LazyLock<Regex>,
}

static PATTERNS: Patterns = Patterns {
    tag: pattern!(
        r"(?i)</?(?:important|system|system[_-]prompt)>|\[/?inst\]|<<sys>>|<\|(?:im_start|system)\|>",
    ),
    tag_description: pattern!(r"(?i)</?instructions>"),
    conceal_tell: pattern!(
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:ever\s+)?(?:tell|mention|inform|notify|alert|reveal|disclose|show|say|explain|report|admit|acknowledge)\b([^.;!?\n]{0,40}?)\b(?:to\s+)?(?:the|your)\s+users?\b([^.;!?\n]{0,30})",
    ),
    conceal_own: pattern!(&format!(
        r"(?i)\b(?:{})\s+(?:ever\s+)?(?:{})(?:s|ed|ing)?\b([^.;!?\n]*)",
        alternation(TELL_NEGATIONS),
        alternation(TELL_VERBS)
    )),
    own_audience: pattern!(
        r"(?i)^\s*(?:to\s+|with\s+)?(?:the\s+|your\s+|any\s+)?(?:users?|humans?|operators?|anyone|anybody|them|people)\b"
    ),
    own_start: pattern!(&format!(
        r"(?i)^\s*(?:(?:about|of|regarding|that|whether)\s+)?(?:((?:this|that|these|it|anything|any\s+of\s+(?:this|it)|the\s+(?:above|following))(?:\s+(?:{})){{0,2}})\s*(?:$|[,;:)\u{{2014}}-]|\b(?:to|from|with|at|in|and|or|just|ever|again|either|here|now|anywhere)\b)|((?:which|what|where|how|when)\s+(?:files?|commands?|tools?|calls?|urls?|data|actions?|steps?|hosts?|servers?|paths?)\b|(?:the\s+|any\s+|your\s+|these\s+)?(?:extra|additional|hidden|background|side)\s+(?:data|steps?|calls?|requests?|files?|actions?|effects?|instructions?|reads?|work|tasks?|uploads?|commands?)\b|your\s+(?:own\s+)?(?:actions?|steps?|activity|tool\s+calls?|calls?|reads?)\b|(?:the|this)\s+tool\s+(?:call|ran|runs|read|reads|sent|sends|did|does|called|was\s+used|collects?)))",
        alternation(OWN_NOUNS)
    )),
    own_you: pattern!(&format!(
        r"(?i)\byou(?:'ve|'re|'ll)?\s+(?:(?:have|had|are|were|will|just|first|also|then|actually|already)\s+){{0,2}}(?:{})\b",
        alternation(OWN_ACTS)
    )),
    conceal_without: pattern!(
        r"(?i)\bwithout\s+(?:(?:telling|informing|notifying|alerting|showing)\s+(?:the\s+|your\s+)?users?|letting\s+(?:the\s+|your\s+)?users?\s+(?:know|see|notice)|(?:the\s+|your\s+)?users?(?:'s)?\s+(?:knowing|knowledge|noticing|seeing|being\s+aware))\b",
    ),
    conceal_hide: pattern!(
        r"(?i)\b(?:hide|conceal|withhold|keep)\s+(?:this|that|it|these|them|everything|the\s+\w+(?:\s+\w+)?)\s+(?:hidden\s+|secret\s+)?from\s+(?:the\s+|your\s+)?users?\b",
    ),
    conceal_let: pattern!(
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not)\s+let\s+(?:the\s+|your\s+)?users?\s+(?:know|see|notice|find\s+out|learn)\b",
    ),
    conceal_user: pattern!(
        r"(?i)\b(?:the\s+|your\s+)?users?\s+(?:must|should|may)\s+(?:not|never)\s+(?:know|notice|find\s+out|learn|be\s+(?:told|informed|notified|made\s+aware))\b",
    ),
    conceal_silent: pattern!(&format!(
        r"(?i)\b(?:silently|secretly|covertly|quietly)\s+(?:{VERBS_SEND})\b|\b(?:do\s+(?:this|it|so)|proceed|act)\s+(?:silently|secretly|covertly)\b"
    )),
    override_ignore: pattern!(
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:(?:previous|prior|preceding|earlier|above|former|original|initial|pretrained|pre-trained)\b(?:\s+[\w-]+){0,2}?\s+(?:instructions?|prompts?|directions|directives|guidelines|rules|training|data|knowledge|context|messages|constraints)\b|(?:previous|prior|preceding|earlier|above)\s*(?:[.,;:!]|$|and\b))|\b(?:ignore|disregard)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:instructions|guidelines|rules)\s*(?:[.,;:!]|$|and\s+(?:instead|now|from|follow|do|output|print|reveal|tell|say|respond|answer)\b)",
    ),
    override_yours: pattern!(
        r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+)?(?:of\s+)?your\s+(?:own\s+)?(?:instructions|system\s+prompt|training|guidelines|programming|guardrails|rules|safety\s+(?:rules|guidelines|instructions))\b",
    ),
    override_system: pattern!(
        r"(?i)\b(?:disregard|ignore|override|bypass|forget)\s+(?:the\s+|your\s+|any\s+|all\s+)*(?:system\s+prompt|system\s+instructions|safety\s+(?:guidelines|rules|instructions|policies)|content\s+polic(?:y|ies))\b",
    ),
    override_now_strong: pattern!(
        r"(?i)\byou\s+are\s+now\s+(?:in\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|dan\b|developer\s+mode|god\s+mode|free\s+(?:from|of)|no\s+longer\s+(?:bound|restricted|an?\s+(?:ai|assistant)))",
    ),
    override_rank: pattern!(
        r"(?i)\b(?:this\s+(?:file|skill|tool|document|section|prompt|message|text|note|guide|description|server|plugin)|these\s+(?:instructions|rules|directives|guidelines)|the\s+instructions\s+(?:here|below|above|in\s+this\s+\w+))\s+(?:always\s+)?(?:takes?|has|have|gets?|must\s+take|should\s+take|carr(?:y|ies))\s+(?:absolute\s+|top\s+|highest\s+|full\s+|the\s+highest\s+)?(?:precedence|priority)\b(?:\s*(?:$|[.;!,])|\s+over\s+(?:all|any|every|other|the\s+system|system|your|the\s+user|user|previous|prior|earlier|default|built-?in|existing|conflicting))|\b(?:overrides?|supersedes?|replaces?|takes?\s+(?:precedence|priority)\s+over)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:other|previous|prior|earlier|existing|system|user'?s?|project'?s?|agent'?s?|conflicting|original)\s+(?:\w+\s+)?(?:instructions|prompts?|rules|skills|guidelines|directives|requests?)\b|\byour\s+(?:actual|real|true|new|updated)\s+(?:system\s+)?(?:instructions|prompt|directives|task|role)\b|\b(?:you\s+are\s+)?no\s+longer\s+(?:bound|restricted|limited|constrained|subject\s+to|required\s+to\s+follow)\b",
    ),
    override_void: pattern!(
        r"(?i)\b(?:(?:all\s+|the\s+|any\s+)?(?:previous|prior|earlier|above|original|old|other|existing)\s+(?:system\s+)?(?:instructions|guidance|rules|directives|prompts?|guidelines)|(?:the\s+)?(?:above\s+|original\s+|previous\s+)?system\s+(?:prompt|instructions|message))\s+(?:(?:have|has)\s+been|are|is|were|was)\s+(?:now\s+)?(?:updated|replaced|revoked|superseded|cancell?ed|deprecated|void|invalid|obsolete|overridden|null|lifted|removed|suspended|disabled)\b|\b(?:previous|prior|earlier|above|original)\s+(?:system\s+)?(?:instructions|guidance|rules|directives|prompt|guidelines)\s+(?:no\s+longer\s+(?:apply|applies|holds?|matters?|valid)|(?:do|does)\s+not\s+apply)\b",
    ),
    override_safety: pattern!(
        r"(?i)\b(?:ignore|bypass|disregard|circumvent|evade)\s+(?:(?:all|any|the|your|every|existing|current|its|of)\s+){0,3}(?:safety|guardrails?|content\s+(?:moderation|filters?|polic(?:y|ies))|safeguards|ethical\s+(?:guidelines|rules|constraints)|moral\s+(?:guidelines|constraints))\b|\b(?:override|disable|turn\s+off|skip)\s+(?:all|any|every)\s+(?:(?:the|your|existing|current|of)\s+){0,2}(?:safety|guardrails?|content\s+(?:moderation|filters?)|safeguards|restrictions)\b",
    ),
    // "Ignore all previous instructions" (or the safety rules) in Spanish, Portuguese, Italian,
    // French, German, Chinese, Japanese and Korean: the verb of dropping, then the instructions
    // named as earlier ones, as all of them, or as the safety rules; a bare "ignores the rules"
    // (a feature described) is no order.
    override_foreign: pattern!(
        r"(?i)\b(?:ignora(?:r|d|te)?|ignore[sz]?|ignorer|ignoriere|ignorieren|olvid(?:a|e|ad|ar|en)|oublie[rz]?|vergiss|vergessen|esque(?:ç|c)a|esquecer|dimentica(?:re)?)\s+(?:(?:las|los|les|la|le|as|os|die|tus|sus|vos|vous|tes|deine|ihre|sie|gli|mis|tuas|suas|de|der|des|ces|estas|estes|queste)\s+){0,2}(?:(?:todas|todos|toutes|tous|tutte|tutti|alle|toda|tout)\s+(?:(?:las|los|les|la|le|as|os|die|tus|sus|vos|vous|tes|deine|ihre|gli|de|der|des|ces|estas|estes|queste|mis)\s+){0,2}(?:instrucciones|instruções|instrucoes|instructions|istruzioni|anweisungen|instruktionen|indicaciones|reglas|règles|regole|regeln|regras|consignes|directivas|direttive|órdenes|ordini|befehle|restricciones|restrictions|restrizioni|einschränkungen|restrições)|(?:instrucciones|instruções|instrucoes|instructions|istruzioni|anweisungen|instruktionen|indicaciones|reglas|règles|regole|regeln|regras|consignes|directivas|direttive)\s+(?:anteriores|previas|precedentes|précédentes|antérieures|precedenti|anteriori|prévias|vorherigen|bisherigen|obigen|vorigen)|(?:(?:todas|todos|toutes|tous|tutte|tutti|alle)\s+(?:(?:las|los|les|le|as|os|die|gli|de|der|des|deine|ihre)\s+){0,2})?(?:anteriores|previas|précédentes|antérieures|precedenti|vorherigen|bisherigen|obigen|vorigen)\s+(?:instrucciones|instructions|istruzioni|anweisungen|instruktionen|regeln|reglas|instruções|consignes))\b|(?:忽略|无视|無視|忘记|忘記|忘掉)掉?你?(?:(?:之前|以前|先前|上面|上述|前面|此前)的?(?:所有|全部|一切|任何)?的?(?:安全|系统|系統)?(?:指令|指示|说明|說明|规则|規則|提示|要求|限制|约束|約束|设定|設定|东西|東西|内容|內容)|(?:所有|全部|一切|任何)的?(?:安全|系统|系統)?(?:指令|指示|说明|說明|规则|規則|提示|要求|限制|约束|約束|设定|設定|东西|東西|内容|內容)?|(?:安全|系统|系統)的?(?:限制|规则|規則|设置|設置|措施|约束|約束|指令))|(?:以前|前|上記|これまで|今まで|すべて)の(?:すべての|全ての)?(?:指示|命令|ルール|指令|制約|制限)を(?:すべて)?(?:無視|忘れ)|(?:安全|セキュリティ)(?:上の)?(?:制限|ルール|制約)を無視|(?:이전|위의|앞의|기존|모든)\s*(?:\S+\s*)?(?:지시|지침|명령|규칙|지시사항|제한)(?:을|를|은|는|사항을)?\s*(?:모두\s*)?(?:무시|잊)|보안\s*(?:제한|규칙|정책)(?:을|를)?\s*무시",
    ),
    exfil_forward: pattern!(
        r"(?i)(?:^|[.!?:]\s+|\n\s*)(?:(?:also|then|always|first|and|please)\s+)?(?:send|forward|post|upload|copy|transmit|bcc|cc|email|mirror)\s+(?:(?:all|every|the|this|your|any|a|copy|of|full|entire|complete)\s+)*(?:results?|outputs?|responses?|conversation|context|messages?|data|contents?|everything|history|logs?|files?|prompts?|requests?|queries)\b[^.!?\n]*?\b(?:to|at)\s+(?:https?://|[\w.+-]+@[\w-]+\.\w)",
    ),
    override_now: pattern!(
        r"(?i)\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you\s+(?:are|will|must))\b"
    ),
    sensitive: pattern!(
        r"(?i)~/\.ssh\b(?:/[\w.-]+)?|(?:^|[^\w])\.ssh/(?:id_[\w]+|authorized_keys)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|(?:^|[\s`'(/~])\.env(?:\.(?:local|production|prod|development|dev|staging|test))?(?:$|[^\w.-])|\bmcp\.json\b|\bclaude_desktop_config\.json\b|\.aws/credentials\b|(?:^|[\s`'(/~])\.(?:npmrc|netrc|pypirc|git-credentials)\b|/etc/(?:passwd|shadow)\b|\.kube/config\b|\.docker/config\.json\b|\.gnupg\b|\bkeychain\b|\bwallet\.dat\b|\blogin\s+data\b|\b(?:chrome|firefox|browser|brave|edge|safari)(?:'s)?\s+(?:profiles?|cookies|saved\s+passwords|password\s+store)\b",
    ),
    sensitive_weak: pattern!(
        r"(?i)\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+|your\s+|the\s+user'?s\s+)?(?:environment\s+variables?|api\s+keys?|secrets?|credentials?|tokens?|passwords?|private\s+keys?|ssh\s+keys?|cookies)\b|\b(?:your|the)\s+system\s+prompt\b|\b(?:entire|full|whole|complete)\s+(?:conversation|chat)(?:\s+history)?\b|\bchat\s+history\b",
    ),
    sensitive_named: pattern!(
        r"(?i)\b(?:your|the\s+user'?s|their|any|every)\s+(?:secret\s+)?(?:api\s+keys?|access\s+keys?|secret\s+keys?|private\s+keys?|credentials|passwords|ssh\s+keys?|seed\s+phrases?|recovery\s+phrases?|tokens)\b|\bprivate\s+key\s+material\b|\b(?:the\s+|user\s+)?conversations?\s+(?:history|logs?|transcripts?)\b|\bupload\w*\s+the\s+conversation\b|\bcontents\s+of\s+the\s+environment\b",
    ),
    // A verb in its base or -ing form; the -s form describes ("the tool uploads the log") or is
    // a noun ("manual uploads"), and the past form is often an adjective ("shared notes").
    transfer: pattern!(&format!(
        r"(?i)\b(?:{})\b|\b(?:{})ing\b",
        TRANSFER_VERBS.join("|"),
        TRANSFER_VERBS
            .iter()
            .map(|verb| verb.strip_suffix('e').unwrap_or(verb))
            .collect::<Vec<_>>()
            .join("|")
    )),
    sink: pattern!(
        r"(?i)\b(?:parameter|param|argument|arg|field|sidenote|side_note|notes?|url|query(?:\s+string)?|webhook|endpoint|message|e-?mail|comment|gist|pastebin|request\s+body)s?\b|https?://",
    ),
    read: pattern!(r"(?i)\b(?:read|open|cat|load|access|collect|grab|extract|list|copy|dump)\b"),
    environment_dump: pattern!(
        r"(?i)\bprintenv\b|(?:^|[\s;&(`$])env\s*(?:\||>)|\bos\.environ\b|/proc/self/environ\b|\$\(env\)",
    ),
    shell_runs_fetched: pattern!(
        r"(?i)\b(?:eval|(?:ba|z|da|k)?sh\s+-c)\s+[\x22']?\$\([^()\n]*?\bbase64\s+(?:-d|--decode|-D)\b|/dev/(?:tcp|udp)/[\w.-]+/\d+\s*0\s*>\s*&\s*1|\b(?:ba|z)?sh\s+-i\s*[^\n]{0,20}/dev/(?:tcp|udp)/",
    ),
    network_command: pattern!(
        r"(?i)\b(?:curl|wget|nc|ncat|netcat|scp|invoke-webrequest|iwr|invoke-restmethod|irm)\b",
    ),
    shadow_available: pattern!(
        r"(?i)\bwhen\s+this\s+tool\s+is\s+(?:available|present|installed|loaded|enabled|connected)\b",
    ),
    shadow_all: pattern!(
        r"(?i)\b(?:all|any|every|each)\s+other\s+(?:tools?|functions?|mcp\s+servers?|servers?)\b|\b(?:for|with|before|when\s+(?:using|calling|invoking))\s+(?:all|any|every|each)\s+(?:tools?|functions?|tool\s+calls?)\b",
    ),
    shadow_named: pattern!(
        r"(?i)\bwhen\s+(?:using|calling|invoking|you\s+(?:use|call|invoke))\s+(?:the\s+)?`?([A-Za-z][\w.:-]*)`?(\s+tool)?",
    ),
    shadow_tool_must: pattern!(
        r"(?i)\bthe\s+`?([A-Za-z][\w.:-]*)`?\s+tool\s+(?:must|should|has\s+to|needs\s+to|shall)\b",
    ),
    directive: pattern!(
        r"(?i)\b(?:always|never|must|should|make\s+sure|be\s+sure|ensure|instead|bcc|cc|add|include|change|replace|set|send)\b",
    ),
    steer_instead: pattern!(
        r"(?i)\b(?:use|call|prefer|choose|pick|select)\s+this\s+(?:tool|function)\s+(?:first\s+)?(?:(?:instead\s+of|rather\s+than|over|in\s+place\s+of)\s+(?:any\s+|all\s+|the\s+)?(?:other|built-?in|native|default|existing)\b|before\s+(?:any|all|every)\b|for\s+(?:all|any|every)\s+(?:tasks?|requests?|questions?|queries)\b)|\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:any|all|the)?\s*(?:other|built-?in|native|default)\s+(?:tools?|functions?)\b",
    ),
    steer_phrase: pattern!(
        r"(?i)\bdo\s+not\s+use\s+(?:any\s+)?(?:other|another|built-?in|the\s+built-?in)\s+(?:tools?|functions?)\b|\bstrongly\s+consider\s+using\s+this\s+tool\b|\bthis\s+is\s+the\s+only\s+tool\s+(?:you\s+)?(?:should|may|can)\b",
    ),
    topic: pattern!(
        r"(?i)inject|jailbreak|\battack|malicious|poison|exfiltrat|adversar|red[- ]team|\bthreat|vulnerab|payload|exploit|phishing|malware|backdoor|pentest|penetration\s+test|smuggl",
    ),
    negation: pattern!(
        r"(?i)\b(?:never|not|no|don'?t|doesn'?t|shouldn'?t|mustn'?t|cannot|can'?t|avoid|refuse|prevent|nor)\b",
    ),
};

pub(super) fn patterns() -> &'static Patterns {
    &PATTERNS
}

/// Whether `text` may hold `needle` (lower-case ASCII, not empty), a word a case-insensitive
/// pattern cannot match without: searched ASCII case-insensitively, so a pattern runs only on
/// text that may match it, and is compiled only when one does. Unicode case folding, which the
/// patterns apply, also matches `s` to `ſ` and `k` to the Kelvin sign, so text that is not ASCII
/// may always hold a needle with either letter.
pub(super) fn may_hold(text: &str, needle: &str) -> bool {
    let (bytes, word) = (text.as_bytes(), needle.as_bytes());
    let Some(&first) = word.first() else {
        return true;
    };
    if !text.is_ascii() && needle.contains(['s', 'k']) {
        return true;
    }
    // `| 0x20` lower-cases a letter; any other byte it changes is no letter.
    bytes
        .windows(word.len())
        .any(|w| w[0] | 0x20 == first && w.eq_ignore_ascii_case(word))
}

/// Whether a line may hold a command `network_command` names: each holds one of these words at
/// the start of a word (not after an ASCII letter, digit or `_`), looked for as [`may_hold`]
/// does, every occurrence, all in one search (`irm` in "confirm" is none).
pub(super) fn may_name_network_command(line: &str) -> bool {
    static WORDS: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    const NETWORK_WORDS: &[&str] = &[
        "curl", "wget", "nc", "netcat", "scp", "invoke-", "iwr", "irm",
    ];
    let words = WORDS.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build(NETWORK_WORDS)
            .ok()
    });
    match words {
        // `scp` and `invoke-` hold an `s` and a `k`.
        Some(words) => {
            let bytes = line.as_bytes();
            !line.is_ascii()
                || words.find_overlapping_iter(line).any(|m| {
                    let before = m.start().checked_sub(1).and_then(|i| bytes.get(i));
                    before.is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_')
                })
        }
        None => true,
    }
}
