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
	export class CreateSessionInput {
	    projectId: string;
	    title: string;
	
	    static createFrom(source: any = {}) {
	        return new CreateSessionInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.projectId = source["projectId"];
	        this.title = source["title"];
	    }
	}
	export class Project {
	    id: string;
	    name: string;
	    path: string;
	    createdAt: number;
	    updatedAt: number;
	
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
	    // Go type: time
	    startedAt: any;
	    // Go type: time
	    endedAt: any;
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
	        this.startedAt = this.convertValues(source["startedAt"], null);
	        this.endedAt = this.convertValues(source["endedAt"], null);
	        this.removed = source["removed"];
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

export namespace permission {
	
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
	    workspace: string;
	    delegate?: string;
	    createdAt: number;
	
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
	        this.workspace = source["workspace"];
	        this.delegate = source["delegate"];
	        this.createdAt = source["createdAt"];
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

