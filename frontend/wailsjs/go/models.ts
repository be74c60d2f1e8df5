export namespace agent {
	
	export class Answer {
	    selected: string[];
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new Answer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.selected = source["selected"];
	        this.text = source["text"];
	    }
	}
	export class DaySpend {
	    day: string;
	    providerId: string;
	    providerName: string;
	    model: string;
	    costUsd?: number;
	    unpriced: number;
	    responses: number;
	    usage: provider.Usage;
	
	    static createFrom(source: any = {}) {
	        return new DaySpend(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.day = source["day"];
	        this.providerId = source["providerId"];
	        this.providerName = source["providerName"];
	        this.model = source["model"];
	        this.costUsd = source["costUsd"];
	        this.unpriced = source["unpriced"];
	        this.responses = source["responses"];
	        this.usage = this.convertValues(source["usage"], provider.Usage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Delegation {
	    id: string;
	    sessionId: string;
	    parentTurnId: string;
	    parentToolCallId: string;
	    turnId: string;
	    subagent: string;
	    source: string;
	    description: string;
	    prompt: string;
	    tools: string[];
	    state: string;
	    report: string;
	    errorCode?: string;
	    errorMessage?: string;
	    turnsUsed: number;
	    toolCount: number;
	    createdAt: number;
	    finishedAt?: number;
	    branch: string;
	    mergeState: string;
	
	    static createFrom(source: any = {}) {
	        return new Delegation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.parentTurnId = source["parentTurnId"];
	        this.parentToolCallId = source["parentToolCallId"];
	        this.turnId = source["turnId"];
	        this.subagent = source["subagent"];
	        this.source = source["source"];
	        this.description = source["description"];
	        this.prompt = source["prompt"];
	        this.tools = source["tools"];
	        this.state = source["state"];
	        this.report = source["report"];
	        this.errorCode = source["errorCode"];
	        this.errorMessage = source["errorMessage"];
	        this.turnsUsed = source["turnsUsed"];
	        this.toolCount = source["toolCount"];
	        this.createdAt = source["createdAt"];
	        this.finishedAt = source["finishedAt"];
	        this.branch = source["branch"];
	        this.mergeState = source["mergeState"];
	    }
	}
	export class InstructionFile {
	    path: string;
	    size: number;
	    loaded: number;
	    truncated?: boolean;
	    skipped?: string;
	
	    static createFrom(source: any = {}) {
	        return new InstructionFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	        this.loaded = source["loaded"];
	        this.truncated = source["truncated"];
	        this.skipped = source["skipped"];
	    }
	}
	export class ToolCallRecord {
	    id: string;
	    turnId: string;
	    messageId: string;
	    toolUseId: string;
	    position: number;
	    tool: string;
	    args: unknown;
	    state: string;
	    result?: unknown;
	    modelText: string;
	    isError: boolean;
	    errorCode?: string;
	    instructions?: InstructionFile[];
	    createdAt: number;
	    startedAt?: number;
	    finishedAt?: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolCallRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.turnId = source["turnId"];
	        this.messageId = source["messageId"];
	        this.toolUseId = source["toolUseId"];
	        this.position = source["position"];
	        this.tool = source["tool"];
	        this.args = source["args"];
	        this.state = source["state"];
	        this.result = source["result"];
	        this.modelText = source["modelText"];
	        this.isError = source["isError"];
	        this.errorCode = source["errorCode"];
	        this.instructions = this.convertValues(source["instructions"], InstructionFile);
	        this.createdAt = source["createdAt"];
	        this.startedAt = source["startedAt"];
	        this.finishedAt = source["finishedAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Message {
	    seq: number;
	    id: string;
	    sessionId: string;
	    turnId: string;
	    role: string;
	    kind: string;
	    content: provider.Block[];
	    stopReason: string;
	    usage: provider.Usage;
	    toolCalls?: ToolCallRecord[];
	    createdAt: number;
	    updatedAt: number;
	    costUsd?: number;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.role = source["role"];
	        this.kind = source["kind"];
	        this.content = this.convertValues(source["content"], provider.Block);
	        this.stopReason = source["stopReason"];
	        this.usage = this.convertValues(source["usage"], provider.Usage);
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCallRecord);
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.costUsd = source["costUsd"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Turn {
	    id: string;
	    sessionId: string;
	    prompt: string;
	    state: string;
	    errorCode?: string;
	    errorMessage?: string;
	    createdAt: number;
	    updatedAt: number;
	    endedAt?: number;
	
	    static createFrom(source: any = {}) {
	        return new Turn(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.prompt = source["prompt"];
	        this.state = source["state"];
	        this.errorCode = source["errorCode"];
	        this.errorMessage = source["errorMessage"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.endedAt = source["endedAt"];
	    }
	}
	export class DelegationPage {
	    delegation: Delegation;
	    turns: Turn[];
	    messages: Message[];
	
	    static createFrom(source: any = {}) {
	        return new DelegationPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.delegation = this.convertValues(source["delegation"], Delegation);
	        this.turns = this.convertValues(source["turns"], Turn);
	        this.messages = this.convertValues(source["messages"], Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Option {
	    label: string;
	    description?: string;
	
	    static createFrom(source: any = {}) {
	        return new Option(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.label = source["label"];
	        this.description = source["description"];
	    }
	}
	export class Page {
	    sessionId: string;
	    turns: Turn[];
	    messages: Message[];
	    more: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Page(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.turns = this.convertValues(source["turns"], Turn);
	        this.messages = this.convertValues(source["messages"], Message);
	        this.more = source["more"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Proposal {
	    proposalId: string;
	    sessionId: string;
	    turnId: string;
	    toolCallId: string;
	    kind: string;
	    version: number;
	    title: string;
	    question: string;
	    markdown: string;
	    path: string;
	    sha256: string;
	    size: number;
	    state: string;
	    permissionMode?: string;
	    feedback?: string;
	    createdAt: number;
	    resolvedAt?: number;
	
	    static createFrom(source: any = {}) {
	        return new Proposal(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.proposalId = source["proposalId"];
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.toolCallId = source["toolCallId"];
	        this.kind = source["kind"];
	        this.version = source["version"];
	        this.title = source["title"];
	        this.question = source["question"];
	        this.markdown = source["markdown"];
	        this.path = source["path"];
	        this.sha256 = source["sha256"];
	        this.size = source["size"];
	        this.state = source["state"];
	        this.permissionMode = source["permissionMode"];
	        this.feedback = source["feedback"];
	        this.createdAt = source["createdAt"];
	        this.resolvedAt = source["resolvedAt"];
	    }
	}
	export class ProposalDecision {
	    sessionId: string;
	    turnId: string;
	    proposalId: string;
	    version: number;
	    approve: boolean;
	    permissionMode?: string;
	    feedback?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProposalDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.proposalId = source["proposalId"];
	        this.version = source["version"];
	        this.approve = source["approve"];
	        this.permissionMode = source["permissionMode"];
	        this.feedback = source["feedback"];
	    }
	}
	export class Question {
	    question: string;
	    options?: Option[];
	    multiSelect?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Question(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.question = source["question"];
	        this.options = this.convertValues(source["options"], Option);
	        this.multiSelect = source["multiSelect"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class QuestionEvent {
	    sessionId: string;
	    turnId: string;
	    toolCallId: string;
	    questionId: string;
	    questions: Question[];
	    state: string;
	    answers?: Answer[];
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new QuestionEvent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.toolCallId = source["toolCallId"];
	        this.questionId = source["questionId"];
	        this.questions = this.convertValues(source["questions"], Question);
	        this.state = source["state"];
	        this.answers = this.convertValues(source["answers"], Answer);
	        this.createdAt = source["createdAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionUsage {
	    sessionId: string;
	    costUsd?: number;
	    unpriced: number;
	    responses: number;
	    usage: provider.Usage;
	    contextTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.costUsd = source["costUsd"];
	        this.unpriced = source["unpriced"];
	        this.responses = source["responses"];
	        this.usage = this.convertValues(source["usage"], provider.Usage);
	        this.contextTokens = source["contextTokens"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Todo {
	    content: string;
	    status: string;
	    activeForm?: string;
	
	    static createFrom(source: any = {}) {
	        return new Todo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.content = source["content"];
	        this.status = source["status"];
	        this.activeForm = source["activeForm"];
	    }
	}
	

}

export namespace api {
	
	export class ShellOption {
	    id: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new ShellOption(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.label = source["label"];
	    }
	}
	export class AppInfo {
	    version: string;
	    platform: string;
	    dataDir: string;
	    commandShells: ShellOption[];
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.platform = source["platform"];
	        this.dataDir = source["dataDir"];
	        this.commandShells = this.convertValues(source["commandShells"], ShellOption);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Artifact {
	    path: string;
	    firstMessageId: string;
	    lastMessageId: string;
	    updatedAt: number;
	    exists: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Artifact(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.firstMessageId = source["firstMessageId"];
	        this.lastMessageId = source["lastMessageId"];
	        this.updatedAt = source["updatedAt"];
	        this.exists = source["exists"];
	    }
	}
	export class Attachment {
	    path: string;
	    name: string;
	    size: number;
	    mediaType: string;
	    sha256?: string;
	    width?: number;
	    height?: number;
	    imageBytes?: number;
	    imageMediaType?: string;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.size = source["size"];
	        this.mediaType = source["mediaType"];
	        this.sha256 = source["sha256"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.imageBytes = source["imageBytes"];
	        this.imageMediaType = source["imageMediaType"];
	    }
	}
	export class AttachmentBudget {
	    count: number;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new AttachmentBudget(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.count = source["count"];
	        this.bytes = source["bytes"];
	    }
	}
	export class CommandRule {
	    id: string;
	    decision: string;
	    program: string;
	    args: string[];
	    scope: string;
	    note: string;
	    projectId: string;
	    projectName: string;
	    projectPath: string;
	    sessionId: string;
	    sessionTitle: string;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new CommandRule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.decision = source["decision"];
	        this.program = source["program"];
	        this.args = source["args"];
	        this.scope = source["scope"];
	        this.note = source["note"];
	        this.projectId = source["projectId"];
	        this.projectName = source["projectName"];
	        this.projectPath = source["projectPath"];
	        this.sessionId = source["sessionId"];
	        this.sessionTitle = source["sessionTitle"];
	        this.createdAt = source["createdAt"];
	    }
	}
	export class CheckedCommand {
	    text: string;
	    wrappers: string[];
	    program: string;
	    args: string[];
	    decision: string;
	    label: string;
	    reason: string;
	    rules: CommandRule[];
	    alwaysAsk: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CheckedCommand(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.wrappers = source["wrappers"];
	        this.program = source["program"];
	        this.args = source["args"];
	        this.decision = source["decision"];
	        this.label = source["label"];
	        this.reason = source["reason"];
	        this.rules = this.convertValues(source["rules"], CommandRule);
	        this.alwaysAsk = source["alwaysAsk"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommandWrite {
	    path: string;
	    static: boolean;
	    via: string;
	    command: number;
	
	    static createFrom(source: any = {}) {
	        return new CommandWrite(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.static = source["static"];
	        this.via = source["via"];
	        this.command = source["command"];
	    }
	}
	export class CommandCheck {
	    decision: string;
	    label: string;
	    reason: string;
	    commands: CheckedCommand[];
	    writes: CommandWrite[];
	    suggestions: string[];
	    parseError: string;
	    shell: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.decision = source["decision"];
	        this.label = source["label"];
	        this.reason = source["reason"];
	        this.commands = this.convertValues(source["commands"], CheckedCommand);
	        this.writes = this.convertValues(source["writes"], CommandWrite);
	        this.suggestions = source["suggestions"];
	        this.parseError = source["parseError"];
	        this.shell = source["shell"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommandCheckInput {
	    sessionId: string;
	    projectId: string;
	    command: string;
	    shell: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandCheckInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.projectId = source["projectId"];
	        this.command = source["command"];
	        this.shell = source["shell"];
	    }
	}
	
	export class CommandRuleInput {
	    decision: string;
	    program: string;
	    args: string[];
	    scope: string;
	    projectId: string;
	    sessionId: string;
	    note: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandRuleInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.decision = source["decision"];
	        this.program = source["program"];
	        this.args = source["args"];
	        this.scope = source["scope"];
	        this.projectId = source["projectId"];
	        this.sessionId = source["sessionId"];
	        this.note = source["note"];
	    }
	}
	
	export class CreateSessionInput {
	    projectId: string;
	    title: string;
	    isolated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CreateSessionInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.projectId = source["projectId"];
	        this.title = source["title"];
	        this.isolated = source["isolated"];
	    }
	}
	export class ExportResult {
	    path: string;
	    bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new ExportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.bytes = source["bytes"];
	    }
	}
	export class FileStamp {
	    exists: boolean;
	    stamp: string;
	
	    static createFrom(source: any = {}) {
	        return new FileStamp(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.exists = source["exists"];
	        this.stamp = source["stamp"];
	    }
	}
	export class FileView {
	    path: string;
	    size: number;
	    stamp: string;
	    text: string;
	    binary: boolean;
	    tooLarge: boolean;
	    note: string;
	
	    static createFrom(source: any = {}) {
	        return new FileView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.size = source["size"];
	        this.stamp = source["stamp"];
	        this.text = source["text"];
	        this.binary = source["binary"];
	        this.tooLarge = source["tooLarge"];
	        this.note = source["note"];
	    }
	}
	export class FolderEntry {
	    name: string;
	    path: string;
	    dir: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FolderEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.path = source["path"];
	        this.dir = source["dir"];
	    }
	}
	export class FolderListing {
	    path: string;
	    entries: FolderEntry[];
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FolderListing(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.entries = this.convertValues(source["entries"], FolderEntry);
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPHeader {
	    name: string;
	    value: string;
	    secret: boolean;
	    hasValue: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPHeader(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = source["value"];
	        this.secret = source["secret"];
	        this.hasValue = source["hasValue"];
	    }
	}
	export class MCPSelection {
	    serverId: string;
	    tools: string[];
	
	    static createFrom(source: any = {}) {
	        return new MCPSelection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.serverId = source["serverId"];
	        this.tools = source["tools"];
	    }
	}
	export class MCPTool {
	    name: string;
	    modelName: string;
	    title: string;
	    description: string;
	    enabled: boolean;
	    schemaTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new MCPTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.modelName = source["modelName"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.enabled = source["enabled"];
	        this.schemaTokens = source["schemaTokens"];
	    }
	}
	export class MCPServer {
	    id: string;
	    scope: string;
	    projectId: string;
	    source: string;
	    transport: string;
	    command: string;
	    args: string[];
	    env: MCPHeader[];
	    cwd: string;
	    url: string;
	    headers: MCPHeader[];
	    enabled: boolean;
	    state: string;
	    errorCode: string;
	    error: string;
	    logTail: string[];
	    restarts: number;
	    trusted: boolean;
	    definitionHash: string;
	    tools: MCPTool[];
	    omittedTools: number;
	    schemaTokens: number;
	    connectTimeoutMs: number;
	    callTimeoutMs: number;
	    overridden: boolean;
	    signingIn: boolean;
	
	    static createFrom(source: any = {}) {
	        return new MCPServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.scope = source["scope"];
	        this.projectId = source["projectId"];
	        this.source = source["source"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = this.convertValues(source["env"], MCPHeader);
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = this.convertValues(source["headers"], MCPHeader);
	        this.enabled = source["enabled"];
	        this.state = source["state"];
	        this.errorCode = source["errorCode"];
	        this.error = source["error"];
	        this.logTail = source["logTail"];
	        this.restarts = source["restarts"];
	        this.trusted = source["trusted"];
	        this.definitionHash = source["definitionHash"];
	        this.tools = this.convertValues(source["tools"], MCPTool);
	        this.omittedTools = source["omittedTools"];
	        this.schemaTokens = source["schemaTokens"];
	        this.connectTimeoutMs = source["connectTimeoutMs"];
	        this.callTimeoutMs = source["callTimeoutMs"];
	        this.overridden = source["overridden"];
	        this.signingIn = source["signingIn"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPServerInput {
	    id: string;
	    transport: string;
	    command: string;
	    args: string[];
	    env: MCPHeader[];
	    cwd: string;
	    url: string;
	    headers: MCPHeader[];
	    enabled: boolean;
	    connectTimeoutMs: number;
	    callTimeoutMs: number;
	
	    static createFrom(source: any = {}) {
	        return new MCPServerInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = this.convertValues(source["env"], MCPHeader);
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = this.convertValues(source["headers"], MCPHeader);
	        this.enabled = source["enabled"];
	        this.connectTimeoutMs = source["connectTimeoutMs"];
	        this.callTimeoutMs = source["callTimeoutMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class MCPTestResult {
	    ok: boolean;
	    errorCode: string;
	    error: string;
	    tools: MCPTool[];
	    logTail: string[];
	
	    static createFrom(source: any = {}) {
	        return new MCPTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.errorCode = source["errorCode"];
	        this.error = source["error"];
	        this.tools = this.convertValues(source["tools"], MCPTool);
	        this.logTail = source["logTail"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class Session {
	    id: string;
	    projectId: string;
	    title: string;
	    operatingMode: string;
	    permissionMode: string;
	    isolated: boolean;
	    createdAt: number;
	    updatedAt: number;
	    archivedAt: number;
	
	    static createFrom(source: any = {}) {
	        return new Session(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.projectId = source["projectId"];
	        this.title = source["title"];
	        this.operatingMode = source["operatingMode"];
	        this.permissionMode = source["permissionMode"];
	        this.isolated = source["isolated"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.archivedAt = source["archivedAt"];
	    }
	}
	export class OpenRequest {
	    kind: string;
	    path?: string;
	    session?: Session;
	    message?: string;
	
	    static createFrom(source: any = {}) {
	        return new OpenRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.session = this.convertValues(source["session"], Session);
	        this.message = source["message"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PluginProject {
	    projectId: string;
	    enabled: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PluginProject(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.projectId = source["projectId"];
	        this.enabled = source["enabled"];
	    }
	}
	export class PluginServer {
	    id: string;
	    transport: string;
	    command: string;
	    args: string[];
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new PluginServer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.url = source["url"];
	    }
	}
	export class PluginTool {
	    name: string;
	    modelName: string;
	    risk: string;
	    planSafeActions: string[];
	    description: string;
	
	    static createFrom(source: any = {}) {
	        return new PluginTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.modelName = source["modelName"];
	        this.risk = source["risk"];
	        this.planSafeActions = source["planSafeActions"];
	        this.description = source["description"];
	    }
	}
	export class PluginSummary {
	    id: string;
	    name: string;
	    version: string;
	    description: string;
	    author: string;
	    permissions: string[];
	    command: string;
	    args: string[];
	    tools: PluginTool[];
	    skills: string[];
	    subagents: string[];
	    commands: string[];
	    mcpServers: PluginServer[];
	    warnings: string[];
	    files: number;
	    hash: string;
	
	    static createFrom(source: any = {}) {
	        return new PluginSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.version = source["version"];
	        this.description = source["description"];
	        this.author = source["author"];
	        this.permissions = source["permissions"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.tools = this.convertValues(source["tools"], PluginTool);
	        this.skills = source["skills"];
	        this.subagents = source["subagents"];
	        this.commands = source["commands"];
	        this.mcpServers = this.convertValues(source["mcpServers"], PluginServer);
	        this.warnings = source["warnings"];
	        this.files = source["files"];
	        this.hash = source["hash"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Plugin {
	    summary: PluginSummary;
	    path: string;
	    enabled: boolean;
	    consented: boolean;
	    changed: boolean;
	    running: boolean;
	    projects: PluginProject[];
	
	    static createFrom(source: any = {}) {
	        return new Plugin(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.summary = this.convertValues(source["summary"], PluginSummary);
	        this.path = source["path"];
	        this.enabled = source["enabled"];
	        this.consented = source["consented"];
	        this.changed = source["changed"];
	        this.running = source["running"];
	        this.projects = this.convertValues(source["projects"], PluginProject);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class PluginStaged {
	    token: string;
	    cancelled: boolean;
	    summary: PluginSummary;
	    installedVersion: string;
	    unchanged: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PluginStaged(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.cancelled = source["cancelled"];
	        this.summary = this.convertValues(source["summary"], PluginSummary);
	        this.installedVersion = source["installedVersion"];
	        this.unchanged = source["unchanged"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class PreviewState {
	    sessionId: string;
	    kind: string;
	    url: string;
	    target: string;
	    title: string;
	    revision: number;
	
	    static createFrom(source: any = {}) {
	        return new PreviewState(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.sessionId = source["sessionId"];
	        this.kind = source["kind"];
	        this.url = source["url"];
	        this.target = source["target"];
	        this.title = source["title"];
	        this.revision = source["revision"];
	    }
	}
	export class Project {
	    id: string;
	    name: string;
	    path: string;
	    createdAt: number;
	    updatedAt: number;
	    setupCommand: string;
	
	    static createFrom(source: any = {}) {
	        return new Project(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.path = source["path"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.setupCommand = source["setupCommand"];
	    }
	}
	export class PromptOptions {
	    mcp: MCPSelection[];
	    attachments?: Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new PromptOptions(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.mcp = this.convertValues(source["mcp"], MCPSelection);
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchSegment {
	    text: string;
	    match?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SearchSegment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.match = source["match"];
	    }
	}
	export class SearchHit {
	    kind: string;
	    sessionId: string;
	    sessionTitle: string;
	    projectId?: string;
	    messageId: string;
	    createdAt: number;
	    snippet: SearchSegment[];
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.sessionId = source["sessionId"];
	        this.sessionTitle = source["sessionTitle"];
	        this.projectId = source["projectId"];
	        this.messageId = source["messageId"];
	        this.createdAt = source["createdAt"];
	        this.snippet = this.convertValues(source["snippet"], SearchSegment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class SessionConfig {
	    operatingMode: string;
	    permissionMode: string;
	
	    static createFrom(source: any = {}) {
	        return new SessionConfig(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.operatingMode = source["operatingMode"];
	        this.permissionMode = source["permissionMode"];
	    }
	}
	export class Settings {
	    defaultPermissionMode: string;
	    defaultCommandShell: string;
	    inlineVisualizations: boolean;
	    permissionTimeoutSeconds: number;
	    theme: string;
	    envPassthrough: string[];
	    envDrop: string[];
	
	    static createFrom(source: any = {}) {
	        return new Settings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.defaultPermissionMode = source["defaultPermissionMode"];
	        this.defaultCommandShell = source["defaultCommandShell"];
	        this.inlineVisualizations = source["inlineVisualizations"];
	        this.permissionTimeoutSeconds = source["permissionTimeoutSeconds"];
	        this.theme = source["theme"];
	        this.envPassthrough = source["envPassthrough"];
	        this.envDrop = source["envDrop"];
	    }
	}
	
	export class SkillEntry {
	    name: string;
	    description: string;
	    source: string;
	    path?: string;
	    userOnly: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SkillEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.source = source["source"];
	        this.path = source["path"];
	        this.userOnly = source["userOnly"];
	    }
	}
	export class SkillProblem {
	    path: string;
	    name?: string;
	    source: string;
	    reason: string;
	    message: string;
	
	    static createFrom(source: any = {}) {
	        return new SkillProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.source = source["source"];
	        this.reason = source["reason"];
	        this.message = source["message"];
	    }
	}
	export class SkillList {
	    skills: SkillEntry[];
	    problems: SkillProblem[];
	    listed: number;
	    leftOut: number;
	
	    static createFrom(source: any = {}) {
	        return new SkillList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.skills = this.convertValues(source["skills"], SkillEntry);
	        this.problems = this.convertValues(source["problems"], SkillProblem);
	        this.listed = source["listed"];
	        this.leftOut = source["leftOut"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class SlashCommand {
	    name: string;
	    source: string;
	    state: string;
	    path: string;
	    description: string;
	    argumentHint: string;
	    problems: string[];
	
	    static createFrom(source: any = {}) {
	        return new SlashCommand(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.source = source["source"];
	        this.state = source["state"];
	        this.path = source["path"];
	        this.description = source["description"];
	        this.argumentHint = source["argumentHint"];
	        this.problems = source["problems"];
	    }
	}
	export class SlashCommandExpansion {
	    name: string;
	    prompt: string;
	
	    static createFrom(source: any = {}) {
	        return new SlashCommandExpansion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.prompt = source["prompt"];
	    }
	}
	export class SlashCommandList {
	    commands: SlashCommand[];
	
	    static createFrom(source: any = {}) {
	        return new SlashCommandList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.commands = this.convertValues(source["commands"], SlashCommand);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Subagent {
	    name: string;
	    source: string;
	    state: string;
	    path: string;
	    editable: boolean;
	    error: string;
	    description: string;
	    tools: string[];
	    inherit: boolean;
	    excludedTools: string[];
	    toolsWritten: string[];
	    model: string;
	    modelProfileId: string;
	    modelProfileName: string;
	    permission: string;
	    maxTurns: number;
	    prompt: string;
	    warnings: string[];
	    overrides: string;
	    overriddenBy: string;
	
	    static createFrom(source: any = {}) {
	        return new Subagent(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.source = source["source"];
	        this.state = source["state"];
	        this.path = source["path"];
	        this.editable = source["editable"];
	        this.error = source["error"];
	        this.description = source["description"];
	        this.tools = source["tools"];
	        this.inherit = source["inherit"];
	        this.excludedTools = source["excludedTools"];
	        this.toolsWritten = source["toolsWritten"];
	        this.model = source["model"];
	        this.modelProfileId = source["modelProfileId"];
	        this.modelProfileName = source["modelProfileName"];
	        this.permission = source["permission"];
	        this.maxTurns = source["maxTurns"];
	        this.prompt = source["prompt"];
	        this.warnings = source["warnings"];
	        this.overrides = source["overrides"];
	        this.overriddenBy = source["overriddenBy"];
	    }
	}
	export class SubagentInput {
	    replaces: string;
	    name: string;
	    description: string;
	    tools: string[];
	    model: string;
	    permission: string;
	    maxTurns: number;
	    prompt: string;
	
	    static createFrom(source: any = {}) {
	        return new SubagentInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.replaces = source["replaces"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.tools = source["tools"];
	        this.model = source["model"];
	        this.permission = source["permission"];
	        this.maxTurns = source["maxTurns"];
	        this.prompt = source["prompt"];
	    }
	}
	export class SubagentList {
	    subagents: Subagent[];
	    userDir: string;
	    projectRoot: string;
	    limit: number;
	    workingTools: string[];
	
	    static createFrom(source: any = {}) {
	        return new SubagentList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.subagents = this.convertValues(source["subagents"], Subagent);
	        this.userDir = source["userDir"];
	        this.projectRoot = source["projectRoot"];
	        this.limit = source["limit"];
	        this.workingTools = source["workingTools"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace audit {
	
	export class Filter {
	    tool: string;
	    decision: string;
	    result: string;
	    cursor: number;
	    limit: number;
	
	    static createFrom(source: any = {}) {
	        return new Filter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.decision = source["decision"];
	        this.result = source["result"];
	        this.cursor = source["cursor"];
	        this.limit = source["limit"];
	    }
	}
	export class Summary {
	    matching: number;
	    tools: string[];
	    decisions: string[];
	    errorCodes: string[];
	
	    static createFrom(source: any = {}) {
	        return new Summary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.matching = source["matching"];
	        this.tools = source["tools"];
	        this.decisions = source["decisions"];
	        this.errorCodes = source["errorCodes"];
	    }
	}
	export class Row {
	    id: number;
	    traceId: string;
	    sessionId: string;
	    turnId: string;
	    toolCallId: string;
	    tool: string;
	    delegate?: string;
	    mcpServer?: string;
	    argsHash: string;
	    argsPreview: string;
	    pathRoot: string;
	    externalPath: boolean;
	    permissionMode: string;
	    operatingMode: string;
	    decision: string;
	    prompted: boolean;
	    permissionWaitMs: number;
	    durationMs: number;
	    overheadMs: number;
	    totalMs: number;
	    ok: boolean;
	    errorCode: string;
	    createdAt: number;
	    commandRules?: string;
	
	    static createFrom(source: any = {}) {
	        return new Row(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.traceId = source["traceId"];
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.toolCallId = source["toolCallId"];
	        this.tool = source["tool"];
	        this.delegate = source["delegate"];
	        this.mcpServer = source["mcpServer"];
	        this.argsHash = source["argsHash"];
	        this.argsPreview = source["argsPreview"];
	        this.pathRoot = source["pathRoot"];
	        this.externalPath = source["externalPath"];
	        this.permissionMode = source["permissionMode"];
	        this.operatingMode = source["operatingMode"];
	        this.decision = source["decision"];
	        this.prompted = source["prompted"];
	        this.permissionWaitMs = source["permissionWaitMs"];
	        this.durationMs = source["durationMs"];
	        this.overheadMs = source["overheadMs"];
	        this.totalMs = source["totalMs"];
	        this.ok = source["ok"];
	        this.errorCode = source["errorCode"];
	        this.createdAt = source["createdAt"];
	        this.commandRules = source["commandRules"];
	    }
	}
	export class Page {
	    rows: Row[];
	    nextCursor: number;
	    summary?: Summary;
	
	    static createFrom(source: any = {}) {
	        return new Page(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.rows = this.convertValues(source["rows"], Row);
	        this.nextCursor = source["nextCursor"];
	        this.summary = this.convertValues(source["summary"], Summary);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace bgtask {
	
	export class StreamOutput {
	    text: string;
	    truncated: boolean;
	    totalBytes: number;
	
	    static createFrom(source: any = {}) {
	        return new StreamOutput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.truncated = source["truncated"];
	        this.totalBytes = source["totalBytes"];
	    }
	}
	export class Task {
	    id: string;
	    sessionId: string;
	    command: string;
	    state: string;
	    exitCode?: number;
	    error?: string;
	    startedAt: string;
	    endedAt: string;
	    removed?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Task(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.command = source["command"];
	        this.state = source["state"];
	        this.exitCode = source["exitCode"];
	        this.error = source["error"];
	        this.startedAt = source["startedAt"];
	        this.endedAt = source["endedAt"];
	        this.removed = source["removed"];
	    }
	}
	export class TaskOutput {
	    task: Task;
	    stdout: StreamOutput;
	    stderr: StreamOutput;
	
	    static createFrom(source: any = {}) {
	        return new TaskOutput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.task = this.convertValues(source["task"], Task);
	        this.stdout = this.convertValues(source["stdout"], StreamOutput);
	        this.stderr = this.convertValues(source["stderr"], StreamOutput);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace checkpoint {
	
	export class Checkpoint {
	    id: string;
	    sessionId: string;
	    turnId?: string;
	    messageId?: string;
	    toolCallId?: string;
	    kind: string;
	    workspace: string;
	    captured: boolean;
	    reason?: string;
	    filesChanged: number;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new Checkpoint(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.messageId = source["messageId"];
	        this.toolCallId = source["toolCallId"];
	        this.kind = source["kind"];
	        this.workspace = source["workspace"];
	        this.captured = source["captured"];
	        this.reason = source["reason"];
	        this.filesChanged = source["filesChanged"];
	        this.createdAt = source["createdAt"];
	    }
	}
	export class CommandFile {
	    path: string;
	    status: string;
	    modeBefore?: string;
	    modeAfter?: string;
	    diff?: string;
	    note?: string;
	    additions: number;
	    deletions: number;
	
	    static createFrom(source: any = {}) {
	        return new CommandFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.status = source["status"];
	        this.modeBefore = source["modeBefore"];
	        this.modeAfter = source["modeAfter"];
	        this.diff = source["diff"];
	        this.note = source["note"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	    }
	}
	export class CommandChange {
	    checkpointId: string;
	    turnId?: string;
	    messageId?: string;
	    toolCallId?: string;
	    captured: boolean;
	    reason?: string;
	    createdAt: number;
	    files: CommandFile[];
	    since?: string;
	    truncated?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CommandChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpointId = source["checkpointId"];
	        this.turnId = source["turnId"];
	        this.messageId = source["messageId"];
	        this.toolCallId = source["toolCallId"];
	        this.captured = source["captured"];
	        this.reason = source["reason"];
	        this.createdAt = source["createdAt"];
	        this.files = this.convertValues(source["files"], CommandFile);
	        this.since = source["since"];
	        this.truncated = source["truncated"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class FileChange {
	    path: string;
	    action: string;
	    modeNow?: string;
	    modeThen?: string;
	    conflict?: boolean;
	    skipped?: string;
	    diff?: string;
	    note?: string;
	    additions: number;
	    deletions: number;
	
	    static createFrom(source: any = {}) {
	        return new FileChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.action = source["action"];
	        this.modeNow = source["modeNow"];
	        this.modeThen = source["modeThen"];
	        this.conflict = source["conflict"];
	        this.skipped = source["skipped"];
	        this.diff = source["diff"];
	        this.note = source["note"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	    }
	}
	export class Overwrite {
	    all?: boolean;
	    paths?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Overwrite(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.all = source["all"];
	        this.paths = source["paths"];
	    }
	}
	export class Plan {
	    checkpoint: Checkpoint;
	    files: FileChange[];
	    conflicts: number;
	
	    static createFrom(source: any = {}) {
	        return new Plan(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpoint = this.convertValues(source["checkpoint"], Checkpoint);
	        this.files = this.convertValues(source["files"], FileChange);
	        this.conflicts = source["conflicts"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Result {
	    checkpoint: Checkpoint;
	    before: Checkpoint;
	    restored: FileChange[];
	    skipped: FileChange[];
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checkpoint = this.convertValues(source["checkpoint"], Checkpoint);
	        this.before = this.convertValues(source["before"], Checkpoint);
	        this.restored = this.convertValues(source["restored"], FileChange);
	        this.skipped = this.convertValues(source["skipped"], FileChange);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Usage {
	    projectId: string;
	    bytes: number;
	    checkpoints: number;
	    shadows: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.projectId = source["projectId"];
	        this.bytes = source["bytes"];
	        this.checkpoints = source["checkpoints"];
	        this.shadows = source["shadows"];
	    }
	}

}

export namespace hostcore {
	
	export class EnvironmentModel {
	    api: string;
	    model: string;
	    baseUrl: string;
	    hasKey: boolean;
	
	    static createFrom(source: any = {}) {
	        return new EnvironmentModel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.api = source["api"];
	        this.model = source["model"];
	        this.baseUrl = source["baseUrl"];
	        this.hasKey = source["hasKey"];
	    }
	}
	export class ProviderList {
	    providers: providers.Profile[];
	    keyStorage: string;
	    environment?: EnvironmentModel;
	
	    static createFrom(source: any = {}) {
	        return new ProviderList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.providers = this.convertValues(source["providers"], providers.Profile);
	        this.keyStorage = source["keyStorage"];
	        this.environment = this.convertValues(source["environment"], EnvironmentModel);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderModelList {
	    ok: boolean;
	    code?: string;
	    message: string;
	    models: provider.ListedModel[];
	
	    static createFrom(source: any = {}) {
	        return new ProviderModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.models = this.convertValues(source["models"], provider.ListedModel);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderTestResult {
	    ok: boolean;
	    code?: string;
	    message: string;
	    durationMs: number;
	    models: provider.ListedModel[];
	    modelsCode?: string;
	    modelsMessage?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderTestResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.code = source["code"];
	        this.message = source["message"];
	        this.durationMs = source["durationMs"];
	        this.models = this.convertValues(source["models"], provider.ListedModel);
	        this.modelsCode = source["modelsCode"];
	        this.modelsMessage = source["modelsMessage"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SessionCost {
	    usage: agent.SessionUsage;
	    contextWindow: number;
	
	    static createFrom(source: any = {}) {
	        return new SessionCost(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.usage = this.convertValues(source["usage"], agent.SessionUsage);
	        this.contextWindow = source["contextWindow"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class WorkspaceFiles {
	    files: string[];
	    truncated: boolean;
	    indexing: boolean;
	
	    static createFrom(source: any = {}) {
	        return new WorkspaceFiles(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = source["files"];
	        this.truncated = source["truncated"];
	        this.indexing = source["indexing"];
	    }
	}

}

export namespace permission {
	
	export class CommandWrite {
	    path: string;
	    abs: string;
	    root: string;
	    via: string;
	    decision: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandWrite(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.abs = source["abs"];
	        this.root = source["root"];
	        this.via = source["via"];
	        this.decision = source["decision"];
	        this.reason = source["reason"];
	    }
	}
	export class CommandLine {
	    text: string;
	    wrappers?: string[];
	    decision: string;
	    reason: string;
	    rules?: string[];
	
	    static createFrom(source: any = {}) {
	        return new CommandLine(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.wrappers = source["wrappers"];
	        this.decision = source["decision"];
	        this.reason = source["reason"];
	        this.rules = source["rules"];
	    }
	}
	export class CommandEffect {
	    decision: string;
	    reason: string;
	    dialect: string;
	    commands: CommandLine[];
	    writes: CommandWrite[];
	    matched: string[];
	    parseError?: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandEffect(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.decision = source["decision"];
	        this.reason = source["reason"];
	        this.dialect = source["dialect"];
	        this.commands = this.convertValues(source["commands"], CommandLine);
	        this.writes = this.convertValues(source["writes"], CommandWrite);
	        this.matched = source["matched"];
	        this.parseError = source["parseError"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class RuleChoice {
	    id: string;
	    words: string;
	    scope: string;
	    label: string;
	
	    static createFrom(source: any = {}) {
	        return new RuleChoice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.words = source["words"];
	        this.scope = source["scope"];
	        this.label = source["label"];
	    }
	}
	export class Request {
	    id: string;
	    sessionId: string;
	    turnId: string;
	    toolCallId: string;
	    tool: string;
	    risk: string;
	    reason: string;
	    preview: string;
	    path: string;
	    external: boolean;
	    protected?: boolean;
	    workspace: string;
	    delegate?: string;
	    server?: string;
	    serverTool?: string;
	    toolTitle?: string;
	    diff?: string;
	    diffNote?: string;
	    createdAt: number;
	    command?: CommandEffect;
	    ruleChoices?: RuleChoice[];
	
	    static createFrom(source: any = {}) {
	        return new Request(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.sessionId = source["sessionId"];
	        this.turnId = source["turnId"];
	        this.toolCallId = source["toolCallId"];
	        this.tool = source["tool"];
	        this.risk = source["risk"];
	        this.reason = source["reason"];
	        this.preview = source["preview"];
	        this.path = source["path"];
	        this.external = source["external"];
	        this.protected = source["protected"];
	        this.workspace = source["workspace"];
	        this.delegate = source["delegate"];
	        this.server = source["server"];
	        this.serverTool = source["serverTool"];
	        this.toolTitle = source["toolTitle"];
	        this.diff = source["diff"];
	        this.diffNote = source["diffNote"];
	        this.createdAt = source["createdAt"];
	        this.command = this.convertValues(source["command"], CommandEffect);
	        this.ruleChoices = this.convertValues(source["ruleChoices"], RuleChoice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace provider {
	
	export class Block {
	    type: string;
	    text?: string;
	    signature?: string;
	    reasoningId?: string;
	    toolUseId?: string;
	    toolName?: string;
	    input?: unknown;
	    isError?: boolean;
	    attachments?: api.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new Block(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.type = source["type"];
	        this.text = source["text"];
	        this.signature = source["signature"];
	        this.reasoningId = source["reasoningId"];
	        this.toolUseId = source["toolUseId"];
	        this.toolName = source["toolName"];
	        this.input = source["input"];
	        this.isError = source["isError"];
	        this.attachments = this.convertValues(source["attachments"], api.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Image {
	    MediaType: string;
	    Data: number[];
	
	    static createFrom(source: any = {}) {
	        return new Image(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.MediaType = source["MediaType"];
	        this.Data = source["Data"];
	    }
	}
	export class ImageRef {
	    SHA256: string;
	    MediaType: string;
	    Width: number;
	    Height: number;
	    Bytes: number;
	
	    static createFrom(source: any = {}) {
	        return new ImageRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.SHA256 = source["SHA256"];
	        this.MediaType = source["MediaType"];
	        this.Width = source["Width"];
	        this.Height = source["Height"];
	        this.Bytes = source["Bytes"];
	    }
	}
	export class ListedModel {
	    id: string;
	    displayName?: string;
	
	    static createFrom(source: any = {}) {
	        return new ListedModel(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.displayName = source["displayName"];
	    }
	}
	export class Usage {
	    inputTokens: number;
	    outputTokens: number;
	    cacheReadTokens?: number;
	    cacheWriteTokens?: number;
	
	    static createFrom(source: any = {}) {
	        return new Usage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.inputTokens = source["inputTokens"];
	        this.outputTokens = source["outputTokens"];
	        this.cacheReadTokens = source["cacheReadTokens"];
	        this.cacheWriteTokens = source["cacheWriteTokens"];
	    }
	}

}

export namespace providers {
	
	export class ModelPrice {
	    input: number;
	    output: number;
	    cacheWrite: number;
	    cacheRead: number;
	
	    static createFrom(source: any = {}) {
	        return new ModelPrice(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input = source["input"];
	        this.output = source["output"];
	        this.cacheWrite = source["cacheWrite"];
	        this.cacheRead = source["cacheRead"];
	    }
	}
	export class PriceOverrides {
	    input?: number;
	    output?: number;
	    cacheWrite?: number;
	    cacheRead?: number;
	
	    static createFrom(source: any = {}) {
	        return new PriceOverrides(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input = source["input"];
	        this.output = source["output"];
	        this.cacheWrite = source["cacheWrite"];
	        this.cacheRead = source["cacheRead"];
	    }
	}
	export class Profile {
	    id: string;
	    name: string;
	    api: string;
	    baseUrl: string;
	    model: string;
	    contextWindow: number;
	    maxOutputTokens: number;
	    temperature?: number;
	    thinking: boolean;
	    supportsImages?: boolean;
	    imagesByDefault: boolean;
	    promptCacheKey?: boolean;
	    openaiApi: string;
	    effectiveContextWindow: number;
	    effectiveMaxOutput: number;
	    limitsKnown: boolean;
	    isDefault: boolean;
	    hasKey: boolean;
	    keyStorage: string;
	    createdAt: number;
	    updatedAt: number;
	    priceOverrides: PriceOverrides;
	    builtinPrice?: ModelPrice;
	    price?: ModelPrice;
	
	    static createFrom(source: any = {}) {
	        return new Profile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.api = source["api"];
	        this.baseUrl = source["baseUrl"];
	        this.model = source["model"];
	        this.contextWindow = source["contextWindow"];
	        this.maxOutputTokens = source["maxOutputTokens"];
	        this.temperature = source["temperature"];
	        this.thinking = source["thinking"];
	        this.supportsImages = source["supportsImages"];
	        this.imagesByDefault = source["imagesByDefault"];
	        this.promptCacheKey = source["promptCacheKey"];
	        this.openaiApi = source["openaiApi"];
	        this.effectiveContextWindow = source["effectiveContextWindow"];
	        this.effectiveMaxOutput = source["effectiveMaxOutput"];
	        this.limitsKnown = source["limitsKnown"];
	        this.isDefault = source["isDefault"];
	        this.hasKey = source["hasKey"];
	        this.keyStorage = source["keyStorage"];
	        this.createdAt = source["createdAt"];
	        this.updatedAt = source["updatedAt"];
	        this.priceOverrides = this.convertValues(source["priceOverrides"], PriceOverrides);
	        this.builtinPrice = this.convertValues(source["builtinPrice"], ModelPrice);
	        this.price = this.convertValues(source["price"], ModelPrice);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace review {
	
	export class Hunk {
	    oldStart: number;
	    oldLines: number;
	    newStart: number;
	    newLines: number;
	    lines: string[];
	
	    static createFrom(source: any = {}) {
	        return new Hunk(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.oldStart = source["oldStart"];
	        this.oldLines = source["oldLines"];
	        this.newStart = source["newStart"];
	        this.newLines = source["newLines"];
	        this.lines = source["lines"];
	    }
	}
	export class Change {
	    version: number;
	    snapshotId: string;
	    messageId: string;
	    path: string;
	    operation: string;
	    status: string;
	    state: string;
	    additions: number;
	    deletions: number;
	    hunks: Hunk[];
	    binary?: boolean;
	    truncated?: boolean;
	    reversible: boolean;
	    sessionId: string;
	    toolCallId: string;
	    groupId?: string;
	    createdAt: number;
	
	    static createFrom(source: any = {}) {
	        return new Change(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.snapshotId = source["snapshotId"];
	        this.messageId = source["messageId"];
	        this.path = source["path"];
	        this.operation = source["operation"];
	        this.status = source["status"];
	        this.state = source["state"];
	        this.additions = source["additions"];
	        this.deletions = source["deletions"];
	        this.hunks = this.convertValues(source["hunks"], Hunk);
	        this.binary = source["binary"];
	        this.truncated = source["truncated"];
	        this.reversible = source["reversible"];
	        this.sessionId = source["sessionId"];
	        this.toolCallId = source["toolCallId"];
	        this.groupId = source["groupId"];
	        this.createdAt = source["createdAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace worktree {
	
	export class Commit {
	    hash: string;
	    author: string;
	    time: string;
	    subject: string;
	
	    static createFrom(source: any = {}) {
	        return new Commit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.author = source["author"];
	        this.time = source["time"];
	        this.subject = source["subject"];
	    }
	}
	export class FileChange {
	    path: string;
	    added: number;
	    deleted: number;
	    binary?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new FileChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.added = source["added"];
	        this.deleted = source["deleted"];
	        this.binary = source["binary"];
	    }
	}
	export class MergeResult {
	    projectBranch: string;
	    from: string;
	    to: string;
	    upToDate: boolean;
	    synced: boolean;
	    syncCommit?: string;
	    fastForwarded: boolean;
	    commits: number;
	
	    static createFrom(source: any = {}) {
	        return new MergeResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.projectBranch = source["projectBranch"];
	        this.from = source["from"];
	        this.to = source["to"];
	        this.upToDate = source["upToDate"];
	        this.synced = source["synced"];
	        this.syncCommit = source["syncCommit"];
	        this.fastForwarded = source["fastForwarded"];
	        this.commits = source["commits"];
	    }
	}
	export class Preview {
	    token: string;
	    projectBranch: string;
	    projectHead: string;
	    branch: string;
	    worktreeHead: string;
	    upToDate: boolean;
	    fastForward: boolean;
	    commits: Commit[];
	    moreCommits?: number;
	    files: FileChange[];
	    moreFiles?: number;
	    diff: string;
	    diffTruncated?: boolean;
	    conflicts?: string[];
	    conflictsUnknown?: boolean;
	    syncInProgress?: boolean;
	    uncommitted?: string[];
	    moreUncommitted?: number;
	
	    static createFrom(source: any = {}) {
	        return new Preview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.projectBranch = source["projectBranch"];
	        this.projectHead = source["projectHead"];
	        this.branch = source["branch"];
	        this.worktreeHead = source["worktreeHead"];
	        this.upToDate = source["upToDate"];
	        this.fastForward = source["fastForward"];
	        this.commits = this.convertValues(source["commits"], Commit);
	        this.moreCommits = source["moreCommits"];
	        this.files = this.convertValues(source["files"], FileChange);
	        this.moreFiles = source["moreFiles"];
	        this.diff = source["diff"];
	        this.diffTruncated = source["diffTruncated"];
	        this.conflicts = source["conflicts"];
	        this.conflictsUnknown = source["conflictsUnknown"];
	        this.syncInProgress = source["syncInProgress"];
	        this.uncommitted = source["uncommitted"];
	        this.moreUncommitted = source["moreUncommitted"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

