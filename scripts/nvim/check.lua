-- Run by scripts/nvim-lsp-check.sh inside `nvim --headless --clean FILE`: loads the Neovim set-up
-- of docs/editors.md ($CHECK_SETUP, the block the script cut from it) as a user's init.lua would,
-- so the documented set-up is what starts `skilllint server` for the file's buffer; waits for the
-- file's diagnostics and writes them, one JSON object a line, to $CHECK_OUT. Written against the
-- 0.7 API (Debian 12's), which later releases keep.
local out = os.getenv("CHECK_OUT")
local buf = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(buf)
local published = false
local default = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  default(err, result, ctx, config)
  if result and result.uri == uri then
    published = true
  end
end
dofile(os.getenv("CHECK_SETUP"))
-- The buffer's FileType event fired before the set-up was loaded: fire it again for the buffer.
vim.cmd("doautocmd FileType " .. vim.bo[buf].filetype)
local function clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end
local lines = {}
-- A client is listed once it has initialised: wait for the diagnostics first.
if not vim.wait(20000, function() return published end, 20) then
  table.insert(lines, #clients() == 0 and "NO CLIENT" or "TIMEOUT")
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
for _, client in ipairs(clients()) do
  client.stop()
end
vim.cmd("qa!")
