//===- Server.cpp - Messages, the lifecycle, documents and diagnostics ------===//
//
// The loop reads one message at a time. When no message is waiting, documents changed since their last analysis are
// analyzed and their diagnostics published, so a burst of edits costs one analysis; a request about a document
// analyzes it first, so answers always match the text.
//
//===----------------------------------------------------------------------===//
#include "Server.h"

#include "llvm/Support/raw_ostream.h"
#include <csignal>
#include <unistd.h>

using namespace tilec;
using namespace tilec::lsp;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

/// Whether arrays and objects in `body` nest deeper than `limit` (strings skipped).
bool nestsDeeper(llvm::StringRef body, unsigned limit) {
  unsigned depth = 0;
  bool inString = false;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (inString) {
      if (c == '\\') ++i;
      else if (c == '"') inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// Whether a string array at params.PATH... holds `word`.
bool offers(const Object *o, std::initializer_list<llvm::StringRef> path, llvm::StringRef word) {
  for (size_t i = 0; o && i + 1 < path.size(); ++i) o = o->getObject(path.begin()[i]);
  const Array *list = o ? o->getArray(path.begin()[path.size() - 1]) : nullptr;
  if (list)
    for (const Value &v : *list)
      if (v.getAsString() == word) return true;
  return false;
}

int severityOf(llvm::SourceMgr::DiagKind kind) {
  switch (kind) {
  case llvm::SourceMgr::DK_Error: return SeverityError;
  case llvm::SourceMgr::DK_Warning: return SeverityWarning;
  default: return SeverityInformation;
  }
}

} // namespace

const llvm::StringMap<Server::Handler> &Server::requests() {
  static const llvm::StringMap<Handler> table = {
      {"initialize", &Server::initialize},
      {"shutdown", &Server::shutdown},
      {"textDocument/hover", &Server::hover},
      {"textDocument/definition", &Server::definition},
      {"textDocument/documentSymbol", &Server::documentSymbol},
      {"textDocument/codeLens", &Server::codeLens},
      {"workspace/executeCommand", &Server::executeCommand},
  };
  return table;
}

const llvm::StringMap<Server::NotificationHandler> &Server::notifications() {
  static const llvm::StringMap<NotificationHandler> table = {
      {"textDocument/didOpen", &Server::didOpen},
      {"textDocument/didChange", &Server::didChange},
      {"textDocument/didClose", &Server::didClose},
  };
  return table;
}

int Server::run() {
  std::string body;
  for (;;) {
    analyzeStale(/*all=*/!transport.pending());
    Transport::Status status = transport.read(body);
    if (status == Transport::Status::End) return state == State::ShuttingDown ? 0 : 1;
    if (status == Transport::Status::Malformed) replyError(nullptr, {ParseError, body});
    else handle(body);
    if (exitStatus) return *exitStatus;
  }
}

void Server::handle(llvm::StringRef body) {
  if (nestsDeeper(body, kMaxNesting))
    return replyError(nullptr, {ParseError, "JSON nested more than " + std::to_string(kMaxNesting) + " deep"});
  llvm::Expected<Value> parsed = llvm::json::parse(body);
  if (!parsed) return replyError(nullptr, {ParseError, llvm::toString(parsed.takeError())});
  const Object *message = parsed->getAsObject();
  if (!message) return replyError(nullptr, {InvalidRequest, "a message is a JSON object"});
  const Value *id = message->get("id");
  bool validId = id && (id->getAsInteger() || id->getAsString());
  std::optional<llvm::StringRef> method = message->getString("method");
  if (!method) {
    if (validId && (message->get("result") || message->get("error"))) return; // a response; the server asks nothing
    return replyError(validId ? *id : nullptr, {InvalidRequest, "a request or notification needs a string 'method'"});
  }
  if (id && !validId) return replyError(nullptr, {InvalidRequest, "a request's id is an integer or a string"});
  const Value *params = message->get("params");
  if (params && params->kind() == Value::Null) params = nullptr; // some clients send `"params": null` for none
  if (params && !params->getAsObject() && !params->getAsArray()) {
    if (id) replyError(*id, {InvalidRequest, "params are an object or an array"});
    return;
  }
  const Object *object = params ? params->getAsObject() : nullptr;
  if (id) request(*method, *id, object);
  else notification(*method, object);
}

void Server::request(llvm::StringRef method, const Value &id, const Object *params) {
  if (state == State::Starting && method != "initialize")
    return replyError(id, {ServerNotInitialized, "the server has not been initialized"});
  if (state == State::ShuttingDown)
    return replyError(id, {InvalidRequest, "the server is shutting down: only 'exit' is accepted"});
  auto handler = requests().find(method);
  if (handler == requests().end())
    return replyError(id, {MethodNotFound, ("unknown method '" + method + "'").str()});
  std::optional<Error> error;
  Value result = (this->*handler->second)(params, error);
  if (error) replyError(id, *error);
  else reply(id, std::move(result));
}

void Server::notification(llvm::StringRef method, const Object *params) {
  if (method == "exit") {
    exitStatus = state == State::ShuttingDown ? 0 : 1;
    return;
  }
  if (state != State::Running) return; // dropped before initialize and after shutdown
  auto handler = notifications().find(method);
  if (handler != notifications().end()) (this->*handler->second)(params);
  // `initialized`, `$/cancelRequest` (requests are answered in order, at once), `$/setTrace`, didSave and any
  // other notification need nothing.
}

void Server::send(Object message) {
  message["jsonrpc"] = "2.0";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Value(std::move(message));
  os.flush();
  transport.write(text);
}

void Server::reply(const Value &id, Value result) { send(Object{{"id", id}, {"result", std::move(result)}}); }

void Server::replyError(const Value &id, const Error &error) {
  std::string message = llvm::json::isUTF8(error.message) ? error.message : llvm::json::fixUTF8(error.message);
  send(Object{{"id", id}, {"error", Object{{"code", error.code}, {"message", std::move(message)}}}});
}

void Server::notify(llvm::StringRef method, Value params) {
  send(Object{{"method", method}, {"params", std::move(params)}});
}

Value Server::initialize(const Object *params, std::optional<Error> &error) {
  if (state != State::Starting) {
    error = Error{InvalidRequest, "initialize was already received"};
    return nullptr;
  }
  const Object *capabilities = params ? params->getObject("capabilities") : nullptr;
  encoding = offers(capabilities, {"general", "positionEncodings"}, "utf-8") ? Encoding::UTF8 : Encoding::UTF16;
  markdown = offers(capabilities, {"textDocument", "hover", "contentFormat"}, "markdown");
  if (const Object *t = capabilities ? capabilities->getObject("textDocument") : nullptr)
    if (const Object *s = t->getObject("documentSymbol"))
      hierarchicalSymbols = s->getBoolean("hierarchicalDocumentSymbolSupport").value_or(false);
  state = State::Running;
  return Object{
      {"capabilities",
       Object{
           {"positionEncoding", encoding == Encoding::UTF8 ? "utf-8" : "utf-16"},
           {"textDocumentSync", Object{{"openClose", true}, {"change", 1 /* full */}}},
           {"hoverProvider", true},
           {"definitionProvider", true},
           {"documentSymbolProvider", true},
           {"codeLensProvider", Object{{"resolveProvider", false}}},
           {"executeCommandProvider", Object{{"commands", Array{"tilec.report"}}}},
       }},
      {"serverInfo", Object{{"name", "tilec"}, {"version", TILEC_VERSION}}},
  };
}

Value Server::shutdown(const Object *, std::optional<Error> &) {
  state = State::ShuttingDown;
  return nullptr;
}

void Server::didOpen(const Object *params) {
  std::optional<Error> error;
  const Object *doc = getObject(params, "textDocument", error);
  std::optional<std::string> uri = getString(doc, "uri", error), text = getString(doc, "text", error);
  if (!uri || !text) return;
  int64_t version = doc->getInteger("version").value_or(0);
  documents[*uri] = std::make_unique<Document>(*uri, std::move(*text), version);
  changedAt[*uri] = std::chrono::steady_clock::now();
}

void Server::didChange(const Object *params) {
  std::optional<Error> error;
  const Object *doc = getObject(params, "textDocument", error);
  std::optional<std::string> uri = getString(doc, "uri", error);
  const Array *changes = params ? params->getArray("contentChanges") : nullptr;
  if (!uri || !changes) return;
  auto it = documents.find(*uri);
  if (it == documents.end()) return;
  Document &d = *it->second;
  int64_t version = doc->getInteger("version").value_or(d.version() + 1);
  for (const Value &change : *changes) {
    const Object *c = change.getAsObject();
    std::optional<llvm::StringRef> text = c ? c->getString("text") : std::nullopt;
    if (!text) continue;
    const Object *range = c->getObject("range");
    if (!range) {
      d.setText(text->str(), version);
      continue;
    }
    // A ranged change: the start and end of the text it replaces.
    auto position = [&](llvm::StringRef key) -> std::optional<Position> {
      const Object *p = range->getObject(key);
      std::optional<int64_t> line = p ? p->getInteger("line") : std::nullopt;
      std::optional<int64_t> character = p ? p->getInteger("character") : std::nullopt;
      if (!line || !character || *line < 0 || *character < 0 || *line > UINT32_MAX || *character > UINT32_MAX)
        return std::nullopt;
      return Position{static_cast<unsigned>(*line), static_cast<unsigned>(*character)};
    };
    std::optional<Position> from = position("start"), to = position("end");
    if (from && to) d.edit(*from, *to, *text, encoding);
  }
  d.setVersion(version);
  changedAt.emplace(*uri, std::chrono::steady_clock::now()); // the first change of a burst sets the clock
}

void Server::didClose(const Object *params) {
  std::optional<Error> error;
  std::optional<std::string> uri = getDocumentURI(params, error);
  if (!uri || !documents.erase(*uri)) return;
  changedAt.erase(*uri);
  notify("textDocument/publishDiagnostics", Object{{"uri", *uri}, {"diagnostics", Array{}}});
}

void Server::analyzeStale(bool all) {
  auto now = std::chrono::steady_clock::now();
  for (auto it = changedAt.begin(); it != changedAt.end();) {
    auto doc = documents.find(it->first);
    if (doc == documents.end()) {
      it = changedAt.erase(it);
      continue;
    }
    if (!all && now - it->second < kMaxDelay) {
      ++it;
      continue;
    }
    doc->second->analyze(options);
    publishDiagnostics(*doc->second);
    it = changedAt.erase(it);
  }
}

Document *Server::analyzed(const Object *params, std::optional<Error> &error) {
  std::optional<std::string> uri = getDocumentURI(params, error);
  if (!uri) return nullptr;
  auto it = documents.find(*uri);
  if (it == documents.end()) {
    error = Error{InvalidParams, "'" + *uri + "' is not open"};
    return nullptr;
  }
  Document &d = *it->second;
  if (d.stale()) {
    d.analyze(options);
    publishDiagnostics(d);
    changedAt.erase(*uri);
  }
  return &d;
}

void Server::publishDiagnostics(const Document &d) {
  const Snapshot &s = *d.latest();
  Array diagnostics;
  for (const RecordedDiagnostic &r : s.file.diagnostics) {
    Position start = s.lines->fromLineColumn(r.line, r.column, encoding);
    Position end = r.line ? s.lines->fromLineColumn(r.line, std::max(r.endColumn, r.column + 1), encoding) : start;
    Value where = rangeJSON(start, end);
    std::string message = llvm::json::isUTF8(r.message) ? r.message : llvm::json::fixUTF8(r.message);
    if (r.kind == llvm::SourceMgr::DK_Note && !diagnostics.empty()) {
      // A note explains the error or warning before it.
      Object &last = *diagnostics.back().getAsObject();
      if (!last.getArray("relatedInformation")) last["relatedInformation"] = Array{};
      last.getArray("relatedInformation")
          ->push_back(Object{{"location", Object{{"uri", d.uri()}, {"range", r.line ? where : *last.get("range")}}},
                             {"message", std::move(message)}});
      continue;
    }
    diagnostics.push_back(Object{{"range", std::move(where)},
                                 {"severity", severityOf(r.kind)},
                                 {"source", "tilec"},
                                 {"message", std::move(message)}});
  }
  notify("textDocument/publishDiagnostics",
         Object{{"uri", d.uri()}, {"version", s.version}, {"diagnostics", std::move(diagnostics)}});
}

int tilec::lsp::runLanguageServer(llvm::ArrayRef<const char *> args) {
  CompileOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--stdio") continue; // what VS Code's client passes for a stdio transport
    if (arg == "--help" || arg == "-h") {
      llvm::outs() << "usage: tilec lsp [--stdio] [--offload-arch=gfx942|gfx950]\n"
                      "  A Language Server Protocol 3.17 server for .tile files on standard input and output "
                      "(docs/editors.md).\n";
      return 0;
    }
    if (arg == "--compare-whole") { // for tests: FileAnalysis.h
      std::vector<std::string> files;
      for (const char *f : args.drop_front(i + 1)) files.push_back(f);
      return compareWithWholeFile(files, options, llvm::outs()) ? 1 : 0;
    }
    if (arg.consume_front("--offload-arch=")) {
      options.target = lookupTarget(arg);
      if (options.target) continue;
      llvm::errs() << "tilec lsp: error: unknown --offload-arch '" << arg << "'; tilec knows " << allTargetNames()
                   << "\n";
      return 2;
    }
    llvm::errs() << "tilec lsp: error: unknown argument '" << arg
                 << "'\nusage: tilec lsp [--stdio] [--offload-arch=gfx942|gfx950]\n";
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN); // a client that goes away ends the input, not the process
  Transport transport(STDIN_FILENO, STDOUT_FILENO);
  return Server(transport, options).run();
}
