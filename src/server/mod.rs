//! `skilllint server`: the Language Server Protocol over standard input and output, on the
//! synchronous `lsp-server` scaffold (no async runtime: the engine's own thread pool does the
//! work).
//!
//! The editor's open documents are an overlay over the files on disk. Each workspace folder is
//! a lint root with its own `skilllint.toml`, linted once when it opens and kept in memory as an
//! [`crate::engine::Session`]: an edit relints the edited file's unit (every unit for a TOOL.md,
//! DRIVER.md or SECRETS.md, which other folders read), the repository-wide rules and triage, so
//! the findings are exactly the command line's over the same texts. Then only the files whose
//! findings changed are published, the edited document always.
//!
//! Edits are not debounced by a timer: the loop takes every message already waiting before it
//! lints, so a burst of keystrokes is linted once, and a quiet editor gets its findings at once.
//!
//! Lints run on a thread of their own, one at a time, while the main loop keeps reading messages:
//! after a slow lint, a request is answered from it while the next one runs (a hover at once; a
//! code action at once unless its document changed since that lint started, when it waits for
//! the lint of its text); after a quick one, it waits for the next, as quick. Edits that come
//! meanwhile are held and linted together next. Findings are published
//! only by the main loop, in the order the lints ran, so the client never gets an older text's
//! after a newer one's.
//!
//! It sits above the engine and the fix loop, and nothing below imports it. It writes nothing:
//! fixes go to the editor as workspace edits. It reads what a `skilllint` run in each folder
//! reads, and the folders' configuration files.

mod actions;
mod convert;
mod transport;
mod workspace;

use convert::{apply_change, uri_to_path};
use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWatchedFilesRegistrationOptions, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    FileSystemWatcher, GlobPattern, HoverParams, HoverProviderCapability, InitializeParams,
    MessageType, PublishDiagnosticsParams, Registration, RegistrationParams, SaveOptions,
    ServerCapabilities, ServerInfo, ShowMessageParams, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use workspace::{Notices, Publish, Snapshot, Workspace};

/// The files whose change on disk matters: configuration files and every kind skilllint reads.
const WATCHED: &str = "**/{skilllint.toml,.skilllint.toml,[Ss][Kk][Ii][Ll][Ll].[Mm][Dd],tools.json,*.tools.json,requirement.yaml,requirement.yml,TOOL.md,DRIVER.md,CLI.md,SECRETS.md}";
/// The organisation policy files a run loads from `.skilllint/policies/`: a change lints the
/// folder afresh, as a config change does.
const WATCHED_POLICIES: &str = "**/.skilllint/policies/*.{yaml,yml}";

/// Serves one client over standard input and output until it says `exit` (or hangs up).
pub fn run() -> Result<(), String> {
    let (connection, threads) = transport::stdio();
    let served = serve(&connection);
    drop(connection);
    // The reader's error first: a refused message is why the session ended.
    let joined = threads.join();
    joined.and(served)
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::from(actions::FIX_ALL),
            ]),
            work_done_progress_options: Default::default(),
            resolve_provider: Some(false),
        })),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(lsp_types::OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..ServerCapabilities::default()
    }
}

fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    // A client whose parameters do not parse still gets a server, with no folders.
    let params: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "skilllint".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| e.to_string())?;

    let mut workspace = Workspace::default();
    let folders = params.workspace_folders.clone().unwrap_or_default();
    for folder in &folders {
        if let Some(path) = uri_to_path(&folder.uri) {
            workspace.add_folder(path);
        }
    }
    #[allow(deprecated)]
    if folders.is_empty() {
        let root = params
            .root_uri
            .as_ref()
            .and_then(uri_to_path)
            .or_else(|| params.root_path.as_ref().map(std::path::PathBuf::from));
        if let Some(root) = root {
            workspace.add_folder(root);
        }
    }
    let watch = params
        .capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    if watch {
        register_watchers(connection)?;
    }
    let (jobs, landed) = spawn_linter()?;
    let mut server = Server {
        connection,
        workspace: Some(Box::new(workspace)),
        jobs,
        landed,
        snapshot: None,
        held: Vec::new(),
        deferred: Vec::new(),
        changed: Changes {
            everything: true,
            ..Changes::default()
        },
        in_flight: Changes::default(),
        keep_snapshot: false,
        copy_cost: std::time::Duration::ZERO,
        dirty: true,
        relint_everything: false,
        crashed: false,
    };
    server.main_loop()
}

fn register_watchers(connection: &Connection) -> Result<(), String> {
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: [WATCHED, WATCHED_POLICIES]
            .into_iter()
            .map(|glob| FileSystemWatcher {
                glob_pattern: GlobPattern::String(glob.to_string()),
                kind: None,
            })
            .collect(),
    };
    let params = RegistrationParams {
        registrations: vec![Registration {
            id: "skilllint-watched-files".to_string(),
            method: lsp_types::notification::DidChangeWatchedFiles::METHOD.to_string(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    let request = Request::new(
        "skilllint/register-watchers".to_string().into(),
        lsp_types::request::RegisterCapability::METHOD.to_string(),
        params,
    );
    connection
        .sender
        .send(Message::Request(request))
        .map_err(|e| e.to_string())
}

/// What the lint thread hands back: the workspace, linted, and what to tell the client.
struct Landed {
    workspace: Box<Workspace>,
    snapshot: Snapshot,
    publish: Vec<Publish>,
    notices: Notices,
    /// The lint panicked: the workspace lints afresh next time.
    crashed: bool,
    /// How long the lint took, copies left out.
    took: std::time::Duration,
    /// How long it spent copying sessions the snapshot shared, when it copied one.
    copied: Option<std::time::Duration>,
    /// Whether it linted anything again.
    relinted: bool,
}

/// A lint that took at least this long makes the server keep the last results to answer from
/// during the next one, unless copying a folder costs more than half as much. Keeping them costs
/// a copy of each folder the next lint relints (its texts and findings; in a 5,000-skill
/// repository three times the relint itself): after a quicker lint, a request waits for the next
/// one instead, which is likely as quick.
const SLOW_LINT: std::time::Duration = std::time::Duration::from_millis(50);

/// Starts the thread that lints the workspace it is sent and sends it back linted. Linting off the
/// main thread lets requests be answered from the last completed lint while the next one runs.
fn spawn_linter() -> Result<(Sender<Box<Workspace>>, Receiver<Landed>), String> {
    let (jobs, job_receiver) = crossbeam_channel::bounded::<Box<Workspace>>(1);
    let (landed_sender, landed) = crossbeam_channel::bounded::<Landed>(1);
    std::thread::Builder::new()
        .name("skilllint-lint".to_string())
        .spawn(move || {
            for mut workspace in job_receiver {
                let started = std::time::Instant::now();
                let mut notices: Notices = Vec::new();
                let flushed = catch_unwind(AssertUnwindSafe(|| workspace.flush(&mut notices)));
                let (publish, crashed) = match flushed {
                    Ok(publish) => (publish, false),
                    Err(_) => {
                        // What was half updated is linted afresh with the next message.
                        workspace.relint_everything();
                        (Vec::new(), true)
                    }
                };
                let snapshot = workspace.snapshot();
                let (copied, relinted) = (workspace.copied, workspace.relinted);
                let took = started.elapsed().saturating_sub(copied.unwrap_or_default());
                let landed = Landed {
                    workspace,
                    snapshot,
                    publish,
                    notices,
                    crashed,
                    took,
                    copied,
                    relinted,
                };
                // The main loop has ended (the client hung up): nothing to hand back to.
                if landed_sender.send(landed).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| format!("cannot start the lint thread: {e}"))?;
    Ok((jobs, landed))
}

/// The documents a notification changes, for deciding which answers of the last lint still fit.
enum Touched {
    Paths(Vec<PathBuf>),
    /// Workspace folders came or went: any file's findings may change.
    Everything,
}

fn touched(notification: &Notification) -> Touched {
    use lsp_types::notification::{DidChangeWatchedFiles, DidChangeWorkspaceFolders};
    let uri_at = |value: &serde_json::Value| {
        value
            .as_str()
            .and_then(|uri| uri.parse::<lsp_types::Uri>().ok())
            .and_then(|uri| uri_to_path(&uri))
    };
    match notification.method.as_str() {
        DidChangeWorkspaceFolders::METHOD => Touched::Everything,
        DidChangeWatchedFiles::METHOD => Touched::Paths(
            notification.params["changes"]
                .as_array()
                .map(|changes| {
                    changes
                        .iter()
                        .filter_map(|change| uri_at(&change["uri"]))
                        .collect()
                })
                .unwrap_or_default(),
        ),
        _ => Touched::Paths(
            uri_at(&notification.params["textDocument"]["uri"])
                .into_iter()
                .collect(),
        ),
    }
}

/// Files changed since some lint started: the answers that lint gives about them no longer fit
/// the editor's texts.
#[derive(Default)]
struct Changes {
    paths: BTreeSet<PathBuf>,
    everything: bool,
}

impl Changes {
    fn add(&mut self, touched: Touched) {
        match touched {
            Touched::Paths(paths) => self.paths.extend(paths),
            Touched::Everything => self.everything = true,
        }
    }

    fn covers(&self, path: Option<&PathBuf>) -> bool {
        self.everything || path.is_some_and(|path| self.paths.contains(path))
    }
}

struct Server<'c> {
    connection: &'c Connection,
    /// The workspace, while no lint runs (during one it is on the lint thread).
    workspace: Option<Box<Workspace>>,
    /// Where the workspace is sent to be linted, and where it comes back.
    jobs: Sender<Box<Workspace>>,
    landed: Receiver<Landed>,
    /// What requests are answered from: the last completed lint (`None` before the first).
    snapshot: Option<Snapshot>,
    /// Notifications that came while the workspace was away, applied in order when it is back.
    held: Vec<Notification>,
    /// Requests that the last completed lint cannot answer (a code action on a document edited
    /// since, or before any lint): answered when a lint that covers them lands.
    deferred: Vec<Request>,
    /// Files changed since the running lint started (or, with none running, since the last one).
    changed: Changes,
    /// Files the running lint is linting again: the snapshot's answers about them are old.
    in_flight: Changes,
    /// The last lint was slow ([`SLOW_LINT`]) and copying is cheap: the snapshot is kept while the
    /// next one runs.
    keep_snapshot: bool,
    /// How long the last copy of the workspace's sessions took (zero before any).
    copy_cost: std::time::Duration,
    /// Something changed since the last lint started.
    dirty: bool,
    /// A request crashed: every folder lints afresh once the workspace is back.
    relint_everything: bool,
    /// Linting crashed once: the user was told, and is not told again on every keystroke.
    crashed: bool,
}

impl Server<'_> {
    fn main_loop(&mut self) -> Result<(), String> {
        loop {
            // Everything already waiting is taken before linting: a burst of edits is linted
            // once, with its last text.
            if self.dirty && self.workspace.is_some() && self.connection.receiver.is_empty() {
                self.start_lint()?;
            }
            crossbeam_channel::select! {
                recv(self.connection.receiver) -> message => {
                    let Ok(message) = message else {
                        return Ok(());
                    };
                    if self.take(message)? {
                        return Ok(());
                    }
                }
                recv(self.landed) -> landed => {
                    let landed = landed.map_err(|_| "the lint thread stopped".to_string())?;
                    self.land(landed)?;
                }
            }
        }
    }

    /// Handles one message from the client; `true` when the session is over.
    fn take(&mut self, message: Message) -> Result<bool, String> {
        match message {
            Message::Request(request) => {
                if request.method == lsp_types::request::Shutdown::METHOD {
                    // Every edit's findings are published before shutdown is answered.
                    self.settle()?;
                }
                if self
                    .connection
                    .handle_shutdown(&request)
                    .map_err(|e| e.to_string())?
                {
                    return Ok(true);
                }
                if self.answerable(&request) {
                    self.answer(request)?;
                } else {
                    self.deferred.push(request);
                }
            }
            Message::Notification(notification) => {
                if notification.method == lsp_types::notification::Exit::METHOD {
                    return Ok(true);
                }
                self.changed.add(touched(&notification));
                self.dirty = true;
                if self.workspace.is_some() {
                    self.apply(notification);
                } else {
                    self.held.push(notification);
                }
            }
            // The client's answer to the watcher registration: nothing to do either way.
            Message::Response(_) => {}
        }
        Ok(false)
    }

    /// Waits for the running lint, then lints what changed since, until the findings of every
    /// message taken so far are published.
    fn settle(&mut self) -> Result<(), String> {
        loop {
            if self.workspace.is_none() {
                let landed = self
                    .landed
                    .recv()
                    .map_err(|_| "the lint thread stopped".to_string())?;
                self.land(landed)?;
            } else if self.dirty {
                self.start_lint()?;
            } else {
                return Ok(());
            }
        }
    }

    /// Sends the workspace to the lint thread; what came before is what it lints.
    fn start_lint(&mut self) -> Result<(), String> {
        let Some(mut workspace) = self.workspace.take() else {
            return Ok(());
        };
        if std::mem::take(&mut self.relint_everything) {
            workspace.relint_everything();
        }
        self.dirty = false;
        self.in_flight = std::mem::take(&mut self.changed);
        if !self.keep_snapshot {
            // The workspace is then the only holder of its sessions, and relints them in place.
            self.snapshot = None;
        }
        self.jobs
            .send(workspace)
            .map_err(|_| "the lint thread stopped".to_string())
    }

    /// A lint is done: its findings are published (always in the order the lints ran, so never
    /// an older text's after a newer one's), the requests waiting for it answered, and the edits
    /// that came meanwhile applied for the next lint.
    fn land(&mut self, landed: Landed) -> Result<(), String> {
        let Landed {
            workspace,
            snapshot,
            publish,
            mut notices,
            crashed,
            took,
            copied,
            relinted,
        } = landed;
        if let Some(copied) = copied {
            self.copy_cost = copied;
        }
        if relinted {
            self.keep_snapshot = took >= SLOW_LINT && self.copy_cost * 2 <= took;
        }
        self.workspace = Some(workspace);
        self.snapshot = Some(snapshot);
        self.in_flight = Changes::default();
        if crashed {
            if !self.crashed {
                notices.push(
                    "skilllint hit an internal error while linting; please report it".to_string(),
                );
            }
            // Linted afresh with the next message, not at once: a lint that crashes every time
            // must not keep the thread busy.
            self.crashed = true;
        }
        for message in notices {
            let params = ShowMessageParams {
                typ: MessageType::ERROR,
                message,
            };
            self.send(Message::Notification(Notification::new(
                lsp_types::notification::ShowMessage::METHOD.to_string(),
                params,
            )))?;
        }
        for Publish {
            uri,
            diagnostics,
            version,
        } in publish
        {
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            };
            self.send(Message::Notification(Notification::new(
                lsp_types::notification::PublishDiagnostics::METHOD.to_string(),
                params,
            )))?;
        }
        for notification in std::mem::take(&mut self.held) {
            self.apply(notification);
        }
        for request in std::mem::take(&mut self.deferred) {
            if self.answerable(&request) {
                self.answer(request)?;
            } else {
                self.deferred.push(request);
            }
        }
        Ok(())
    }

    /// Whether the last completed lint answers `request` as a lint of the editor's texts now
    /// would. Hover is always answered from it (an explanation a few keystrokes old is still the
    /// rule's); a code action's edits must fit the document's text, so one on a document edited
    /// since that lint started waits for the lint of its text, and "fix all", which reads the
    /// editor's texts, for the workspace to be back.
    fn answerable(&self, request: &Request) -> bool {
        use lsp_types::request::CodeActionRequest;
        if request.method != CodeActionRequest::METHOD {
            return self.snapshot.is_some()
                || request.method != lsp_types::request::HoverRequest::METHOD;
        }
        let Ok(params) = serde_json::from_value::<CodeActionParams>(request.params.clone()) else {
            // Answered at once, with the error.
            return true;
        };
        let path = uri_to_path(&params.text_document.uri);
        let current = self.snapshot.is_some()
            && !self.changed.covers(path.as_ref())
            && !self.in_flight.covers(path.as_ref());
        let fix_all = params
            .context
            .only
            .as_deref()
            .is_some_and(|kinds| actions::asks_for(kinds, actions::FIX_ALL));
        current && (!fix_all || self.workspace.is_some())
    }

    fn answer(&mut self, request: Request) -> Result<(), String> {
        let id = request.id.clone();
        let response = catch_unwind(AssertUnwindSafe(|| self.handle_request(request)))
            .unwrap_or_else(|_| {
                self.relint_everything = true;
                self.dirty = true;
                Response::new_err(
                    id,
                    ErrorCode::InternalError as i32,
                    "skilllint hit an internal error on this request; please report it".to_string(),
                )
            });
        self.send(Message::Response(response))
    }

    /// Applies a notification to the workspace (which is home).
    fn apply(&mut self, notification: Notification) {
        let handled = catch_unwind(AssertUnwindSafe(|| self.handle_notification(notification)));
        if handled.is_err() {
            self.relint_everything = true;
        }
        self.dirty = true;
    }

    fn send(&self, message: Message) -> Result<(), String> {
        self.connection
            .sender
            .send(message)
            .map_err(|e| e.to_string())
    }

    fn handle_notification(&mut self, notification: Notification) {
        let Some(workspace) = self.workspace.as_deref_mut() else {
            return;
        };
        use lsp_types::notification::{
            DidChangeTextDocument, DidChangeWatchedFiles, DidChangeWorkspaceFolders,
            DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
        };
        let method = notification.method.as_str();
        let params = notification.params;
        // A notification has no answer: one whose parameters do not parse is dropped.
        match method {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(params) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        let document = p.text_document;
                        workspace.set_text(path, Some((document.text, document.version)));
                    }
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(params) {
                    let Some(path) = uri_to_path(&p.text_document.uri) else {
                        return;
                    };
                    let Some(mut text) = workspace.open.get(&path).cloned() else {
                        return;
                    };
                    for change in p.content_changes {
                        apply_change(&mut text, change.range, &change.text);
                    }
                    workspace.set_text(path, Some((text, p.text_document.version)));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(params) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        workspace.set_text(path, None);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(params) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        workspace.disk_changed(&path);
                    }
                }
            }
            DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(params) {
                    for change in p.changes {
                        if let Some(path) = uri_to_path(&change.uri) {
                            workspace.disk_changed(&path);
                        }
                    }
                }
            }
            DidChangeWorkspaceFolders::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWorkspaceFoldersParams>(params) {
                    for removed in &p.event.removed {
                        if let Some(path) = uri_to_path(&removed.uri) {
                            let cleared = workspace.remove_folder(&path);
                            workspace.cleared.extend(cleared);
                        }
                    }
                    for added in &p.event.added {
                        if let Some(path) = uri_to_path(&added.uri) {
                            workspace.add_folder(path);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn handle_request(&mut self, request: Request) -> Response {
        use lsp_types::request::{CodeActionRequest, HoverRequest};
        let Request { id, method, params } = request;
        let invalid = |id, error: serde_json::Error| {
            Response::new_err(id, ErrorCode::InvalidParams as i32, error.to_string())
        };
        match method.as_str() {
            CodeActionRequest::METHOD => match serde_json::from_value::<CodeActionParams>(params) {
                Ok(p) => Response::new_ok(id, self.code_actions(p)),
                Err(error) => invalid(id, error),
            },
            HoverRequest::METHOD => match serde_json::from_value::<HoverParams>(params) {
                Ok(p) => {
                    let document = p.text_document_position_params;
                    let snapshot = self.snapshot.as_ref();
                    let hover = uri_to_path(&document.text_document.uri)
                        .zip(snapshot)
                        .and_then(|(path, snapshot)| {
                            let (index, rel) = snapshot.locate(&path)?;
                            let folder = snapshot.folder(index)?;
                            actions::hover(folder, &rel, document.position)
                        });
                    Response::new_ok(id, hover)
                }
                Err(error) => invalid(id, error),
            },
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("skilllint does not answer `{method}`"),
            ),
        }
    }

    fn code_actions(&self, params: CodeActionParams) -> Vec<lsp_types::CodeActionOrCommand> {
        let uri = params.text_document.uri;
        let Some(path) = uri_to_path(&uri) else {
            return Vec::new();
        };
        let Some(snapshot) = &self.snapshot else {
            return Vec::new();
        };
        let Some((index, rel)) = snapshot.locate(&path) else {
            return Vec::new();
        };
        let Some(folder) = snapshot.folder(index) else {
            return Vec::new();
        };
        let only = params.context.only.as_deref();
        let mut found = actions::quick_fixes(folder, &rel, params.range, only);
        // Fixing a whole document runs the fix loop: only when a source action is asked for.
        let fix_all_asked = only.is_some_and(|kinds| actions::asks_for(kinds, actions::FIX_ALL));
        // Asked for only while the workspace is here ([`Server::answerable`]): its texts are the
        // editor's.
        let open = self.workspace.as_ref().map(|w| &w.open);
        if let (true, Some(open)) = (fix_all_asked, open) {
            if let Ok(Some(action)) = actions::fix_all(folder, open, &path, uri) {
                found.push(lsp_types::CodeActionOrCommand::CodeAction(action));
            }
        }
        found
    }
}
