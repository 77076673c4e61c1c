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
//! It sits above the engine and the fix loop, and nothing below imports it. It writes nothing:
//! fixes go to the editor as workspace edits. It reads what a `skilllint` run in each folder
//! reads, and the folders' configuration files.

mod actions;
mod convert;
mod transport;
mod workspace;

use convert::{apply_change, uri_to_path};
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
use std::panic::{catch_unwind, AssertUnwindSafe};
use workspace::{Notices, Publish, Workspace};

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
    let mut server = Server {
        connection,
        workspace,
        dirty: true,
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

struct Server<'c> {
    connection: &'c Connection,
    workspace: Workspace,
    /// Something changed since the last lint.
    dirty: bool,
    /// Linting crashed once: the user was told, and is not told again on every keystroke.
    crashed: bool,
}

impl Server<'_> {
    fn main_loop(&mut self) -> Result<(), String> {
        loop {
            // Everything already waiting is taken before linting: a burst of edits is linted
            // once, with its last text.
            let message = if self.dirty {
                match self.connection.receiver.try_recv() {
                    Ok(message) => message,
                    Err(error) if error.is_empty() => {
                        self.lint_and_publish()?;
                        continue;
                    }
                    Err(_) => return Ok(()),
                }
            } else {
                match self.connection.receiver.recv() {
                    Ok(message) => message,
                    Err(_) => return Ok(()),
                }
            };
            match message {
                Message::Request(request) => {
                    if self
                        .connection
                        .handle_shutdown(&request)
                        .map_err(|e| e.to_string())?
                    {
                        return Ok(());
                    }
                    // Answers are about the current texts.
                    if self.dirty {
                        self.lint_and_publish()?;
                    }
                    let id = request.id.clone();
                    let response = catch_unwind(AssertUnwindSafe(|| self.handle_request(request)))
                        .unwrap_or_else(|_| {
                            self.workspace.relint_everything();
                            self.dirty = true;
                            Response::new_err(
                                id,
                                ErrorCode::InternalError as i32,
                                "skilllint hit an internal error on this request; please report it"
                                    .to_string(),
                            )
                        });
                    self.send(Message::Response(response))?;
                }
                Message::Notification(notification) => {
                    if notification.method == lsp_types::notification::Exit::METHOD {
                        return Ok(());
                    }
                    let handled =
                        catch_unwind(AssertUnwindSafe(|| self.handle_notification(notification)));
                    if handled.is_err() {
                        self.workspace.relint_everything();
                    }
                    self.dirty = true;
                }
                // The client's answer to the watcher registration: nothing to do either way.
                Message::Response(_) => {}
            }
        }
    }

    fn send(&self, message: Message) -> Result<(), String> {
        self.connection
            .sender
            .send(message)
            .map_err(|e| e.to_string())
    }

    fn lint_and_publish(&mut self) -> Result<(), String> {
        self.dirty = false;
        let mut notices: Notices = Vec::new();
        let flushed = catch_unwind(AssertUnwindSafe(|| self.workspace.flush(&mut notices)));
        let publish = flushed.unwrap_or_else(|_| {
            // What was half updated is linted afresh with the next message.
            self.workspace.relint_everything();
            if !self.crashed {
                notices.push(
                    "skilllint hit an internal error while linting; please report it".to_string(),
                );
            }
            self.crashed = true;
            Vec::new()
        });
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
        Ok(())
    }

    fn handle_notification(&mut self, notification: Notification) {
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
                        self.workspace
                            .set_text(path, Some((document.text, document.version)));
                    }
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(params) {
                    let Some(path) = uri_to_path(&p.text_document.uri) else {
                        return;
                    };
                    let Some(mut text) = self.workspace.open.get(&path).cloned() else {
                        return;
                    };
                    for change in p.content_changes {
                        apply_change(&mut text, change.range, &change.text);
                    }
                    self.workspace
                        .set_text(path, Some((text, p.text_document.version)));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(params) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        self.workspace.set_text(path, None);
                    }
                }
            }
            DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(params) {
                    if let Some(path) = uri_to_path(&p.text_document.uri) {
                        self.workspace.disk_changed(&path);
                    }
                }
            }
            DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(params) {
                    for change in p.changes {
                        if let Some(path) = uri_to_path(&change.uri) {
                            self.workspace.disk_changed(&path);
                        }
                    }
                }
            }
            DidChangeWorkspaceFolders::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWorkspaceFoldersParams>(params) {
                    for removed in &p.event.removed {
                        if let Some(path) = uri_to_path(&removed.uri) {
                            let cleared = self.workspace.remove_folder(&path);
                            self.workspace.cleared.extend(cleared);
                        }
                    }
                    for added in &p.event.added {
                        if let Some(path) = uri_to_path(&added.uri) {
                            self.workspace.add_folder(path);
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
                    let hover = uri_to_path(&document.text_document.uri)
                        .and_then(|path| self.workspace.locate(&path))
                        .and_then(|(index, rel)| {
                            let folder = self.workspace.folder(index)?;
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
        let Some((index, rel)) = self.workspace.locate(&path) else {
            return Vec::new();
        };
        let Some(folder) = self.workspace.folder(index) else {
            return Vec::new();
        };
        let only = params.context.only.as_deref();
        let mut found = actions::quick_fixes(folder, &rel, params.range, only);
        // Fixing a whole document runs the fix loop: only when a source action is asked for.
        let fix_all_asked = only.is_some_and(|kinds| actions::asks_for(kinds, actions::FIX_ALL));
        if fix_all_asked {
            if let Ok(Some(action)) = actions::fix_all(folder, &self.workspace.open, &path, uri) {
                found.push(lsp_types::CodeActionOrCommand::CodeAction(action));
            }
        }
        found
    }
}
