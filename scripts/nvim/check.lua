-- Run by scripts/nvim-lsp-check.sh inside `nvim --headless --clean FILE`: starts `skilllint server`
-- through Neovim's built-in LSP client (the 0.7 API, Debian 12's), attaches it to the file's buffer,
-- waits for the file's diagnostics and writes them, one JSON object a line, to $CHECK_OUT.
local out = os.getenv("CHECK_OUT")
local root = os.getenv("CHECK_ROOT")
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local published = false
local client_id = vim.lsp.start_client({
  name = "skilllint",
  cmd = { os.getenv("SKILLLINT"), "server" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "check" } },
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      if result.uri == uri then
        published = true
      end
    end,
  },
})
local lines = {}
if not client_id then
  table.insert(lines, "NO CLIENT")
else
  vim.lsp.buf_attach_client(buf, client_id)
  if not vim.wait(20000, function() return published end, 20) then
    table.insert(lines, "TIMEOUT")
  end
end
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(lines, vim.fn.json_encode({
    code = d.code,
    message = d.message,
    severity = d.severity,
    lnum = d.lnum,
    col = d.col,
    end_lnum = d.end_lnum,
    end_col = d.end_col,
  }))
end
vim.fn.writefile(lines, out)
if client_id then
  vim.lsp.stop_client(client_id)
end
vim.cmd("qa!")
