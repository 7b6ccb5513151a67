//===- Protocol.h - LSP positions, ranges and error codes ------------------===//
//
// What the Language Server Protocol 3.17 says about text: a position is a 0-based line and a character offset counted
// in the code units of the negotiated encoding (UTF-16 unless the client offers UTF-8); the compiler counts bytes.
// LineTable splits a text into lines once and converts between byte offsets and LSP positions in either direction,
// clamping positions past a line's end or the text's end as the protocol asks. Also the JSON-RPC error codes the
// server answers with, and readers for the parameters it takes (a missing or mistyped field is an InvalidParams
// error, never a crash).
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_PROTOCOL_H
#define TILEC_LSP_PROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <vector>

namespace tilec::lsp {

/// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
};

/// LSP DiagnosticSeverity and SymbolKind values the server uses.
enum Severity : int { SeverityError = 1, SeverityWarning = 2, SeverityInformation = 3 };
enum SymbolKind : int {
  SymbolFunction = 12,
  SymbolVariable = 13,
  SymbolConstant = 14,
  SymbolObject = 19,
  SymbolArray = 18,
  SymbolStruct = 23,
};

/// How `character` counts: UTF-16 code units (the protocol's default) or bytes (when the client offers "utf-8").
enum class Encoding { UTF16, UTF8 };

struct Position {
  unsigned line = 0, character = 0;
};

/// A text's lines, for converting between byte offsets and positions. Lines end at "\n" (a "\r" before it belongs to
/// the terminator), as the compiler counts them.
class LineTable {
public:
  explicit LineTable(llvm::StringRef text);
  unsigned lineCount() const { return static_cast<unsigned>(starts.size()); }
  /// Line `i` without its terminator; empty past the end.
  llvm::StringRef line(unsigned i) const;
  /// The byte offset of `p`; a character past the line's end is its end, a line past the last is the text's end.
  size_t offset(Position p, Encoding encoding) const;
  /// The position of byte `offset` (clamped to the text).
  Position position(size_t offset, Encoding encoding) const;
  /// The position of 1-based line `line` and 1-based byte column `column`, as the compiler reports them.
  Position fromLineColumn(unsigned line, unsigned column, Encoding encoding) const;
  llvm::StringRef text() const { return all; }

private:
  llvm::StringRef all;
  std::vector<size_t> starts;
};

/// Code units of the first `bytes` bytes of `line`.
unsigned unitsOf(llvm::StringRef line, size_t bytes, Encoding encoding);
/// Bytes of `line` before code unit `units` (its size when the line has fewer).
size_t bytesOf(llvm::StringRef line, unsigned units, Encoding encoding);

llvm::json::Value toJSON(Position p);
llvm::json::Value rangeJSON(Position start, Position end);

/// A JSON-RPC error to send back: a code and a message.
struct Error {
  int code;
  std::string message;
};

/// Readers of request parameters. Each sets `error` (InvalidParams) and returns std::nullopt when the field is missing
/// or of the wrong type.
std::optional<std::string> getString(const llvm::json::Object *o, llvm::StringRef key, std::optional<Error> &error);
std::optional<int64_t> getInteger(const llvm::json::Object *o, llvm::StringRef key, std::optional<Error> &error);
const llvm::json::Object *getObject(const llvm::json::Object *o, llvm::StringRef key, std::optional<Error> &error);
std::optional<Position> getPosition(const llvm::json::Object *params, std::optional<Error> &error);
/// params.textDocument.uri
std::optional<std::string> getDocumentURI(const llvm::json::Object *params, std::optional<Error> &error);

} // namespace tilec::lsp

#endif
