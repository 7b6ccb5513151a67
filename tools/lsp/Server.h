//===- Server.h - `tilec lsp`: the language server for .tile files ---------===//
//
// A Language Server Protocol 3.17 server over stdio. The lifecycle (initialize, initialized, shutdown, exit: status 0
// after shutdown, 1 without), open documents (didOpen, didChange with full or ranged changes, didClose), diagnostics
// (publishDiagnostics: the compiler's errors and warnings with the ranges it underlines, after each change once the
// client pauses), and the features in Features.cpp: hover, go to definition, document symbols, code lenses and the
// `tilec.report` command. Every message is checked before it is used: malformed JSON is a ParseError, a request
// before initialize ServerNotInitialized, an unknown request MethodNotFound, bad parameters InvalidParams; unknown
// notifications are ignored. One thread does everything, in the order messages arrive.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_SERVER_H
#define TILEC_LSP_SERVER_H

#include "Document.h"
#include "Protocol.h"
#include "Transport.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"
#include <chrono>
#include <map>
#include <memory>
#include <optional>

namespace tilec::lsp {

class Server {
public:
  Server(Transport &transport, CompileOptions options) : transport(transport), options(options) {}
  /// Serves until `exit` or the end of input; returns the exit status.
  int run();

  /// Nesting of arrays and objects beyond which a message is refused before it is parsed (the JSON parser recurses).
  static constexpr unsigned kMaxNesting = 512;
  /// How long a changed document waits for the client to pause before it is analyzed anyway.
  static constexpr std::chrono::milliseconds kMaxDelay{500};

private:
  using Handler = llvm::json::Value (Server::*)(const llvm::json::Object *params, std::optional<Error> &error);
  using NotificationHandler = void (Server::*)(const llvm::json::Object *params);

  void handle(llvm::StringRef body);
  void request(llvm::StringRef method, const llvm::json::Value &id, const llvm::json::Object *params);
  void notification(llvm::StringRef method, const llvm::json::Object *params);
  void send(llvm::json::Object message);
  void reply(const llvm::json::Value &id, llvm::json::Value result);
  void replyError(const llvm::json::Value &id, const Error &error);
  void notify(llvm::StringRef method, llvm::json::Value params);

  /// Analyzes the documents changed since their last analysis and publishes their diagnostics; with `all` false only
  /// those that have waited kMaxDelay.
  void analyzeStale(bool all);
  void publishDiagnostics(const Document &d);
  /// The open document `params.textDocument.uri`, analyzed; null with `error` set when it is not open.
  Document *analyzed(const llvm::json::Object *params, std::optional<Error> &error);

  // The lifecycle and the documents (Server.cpp).
  llvm::json::Value initialize(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value shutdown(const llvm::json::Object *params, std::optional<Error> &error);
  void didOpen(const llvm::json::Object *params);
  void didChange(const llvm::json::Object *params);
  void didClose(const llvm::json::Object *params);

  // The features (Features.cpp).
  /// The document, its last parsed snapshot and the name under the position of a hover or definition request (a
  /// null reference where there is none, or `error` set).
  struct Located {
    Document *document;
    const Snapshot *parsed;
    const Reference *reference;
  };
  Located locate(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value hover(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value definition(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value documentSymbol(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value codeLens(const llvm::json::Object *params, std::optional<Error> &error);
  llvm::json::Value executeCommand(const llvm::json::Object *params, std::optional<Error> &error);
  /// The range of bytes [begin, end) of `snapshot`'s text.
  llvm::json::Value range(const Snapshot &snapshot, size_t begin, size_t end) const;

  static const llvm::StringMap<Handler> &requests();
  static const llvm::StringMap<NotificationHandler> &notifications();

  Transport &transport;
  CompileOptions options;
  enum class State { Starting, Running, ShuttingDown } state = State::Starting;
  std::optional<int> exitStatus;
  Encoding encoding = Encoding::UTF16;
  bool markdown = false;            ///< the client shows Markdown in hovers
  bool hierarchicalSymbols = false; ///< the client takes DocumentSymbol[] (else SymbolInformation[])
  std::map<std::string, std::unique_ptr<Document>> documents;
  std::map<std::string, std::chrono::steady_clock::time_point> changedAt; ///< documents waiting for analysis
};

/// `tilec lsp [--stdio] [--offload-arch=ARCH]`: serves on stdin and stdout. `args` are the words after `lsp`.
/// Returns the exit status: 0 after shutdown and exit, 1 otherwise, 2 for a usage error.
int runLanguageServer(llvm::ArrayRef<const char *> args);

} // namespace tilec::lsp

#endif
