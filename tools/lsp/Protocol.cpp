//===- Protocol.cpp - Positions in UTF-16 or UTF-8 code units ---------------===//
//
// Conversions count code units straight from the UTF-8 bytes: a 4-byte sequence is two UTF-16 units (a surrogate
// pair), every other sequence one. Malformed UTF-8 counts one unit per byte, so no input can make them fail.
//
//===----------------------------------------------------------------------===//
#include "Protocol.h"

#include <algorithm>

using namespace tilec::lsp;
using llvm::json::Object;

namespace {

/// The length of the UTF-8 sequence that starts with byte `c`, and the UTF-16 units it takes.
std::pair<size_t, unsigned> sequence(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return {4, 2};
  if (c >= 0xE0 && c < 0xF0) return {3, 1};
  if (c >= 0xC0 && c < 0xE0) return {2, 1};
  return {1, 1};
}

} // namespace

unsigned tilec::lsp::unitsOf(llvm::StringRef line, size_t bytes, Encoding encoding) {
  bytes = std::min(bytes, line.size());
  if (encoding == Encoding::UTF8) return static_cast<unsigned>(bytes);
  unsigned units = 0;
  for (size_t i = 0; i < bytes;) {
    auto [length, u] = sequence(static_cast<unsigned char>(line[i]));
    i += length;
    units += u;
  }
  return units;
}

size_t tilec::lsp::bytesOf(llvm::StringRef line, unsigned units, Encoding encoding) {
  if (encoding == Encoding::UTF8) return std::min<size_t>(units, line.size());
  size_t i = 0;
  unsigned counted = 0;
  while (i < line.size()) {
    auto [length, u] = sequence(static_cast<unsigned char>(line[i]));
    if (counted + u > units) break;
    counted += u;
    i = std::min(i + length, line.size());
  }
  return i;
}

LineTable::LineTable(llvm::StringRef text) : all(text) {
  starts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts.push_back(i + 1);
}

llvm::StringRef LineTable::line(unsigned i) const {
  if (i >= starts.size()) return {};
  size_t end = i + 1 < starts.size() ? starts[i + 1] - 1 : all.size();
  llvm::StringRef l = all.slice(starts[i], end);
  return l.ends_with("\r") ? l.drop_back() : l;
}

size_t LineTable::offset(Position p, Encoding encoding) const {
  if (p.line >= starts.size()) return all.size();
  return starts[p.line] + bytesOf(line(p.line), p.character, encoding);
}

Position LineTable::position(size_t offset, Encoding encoding) const {
  offset = std::min(offset, all.size());
  unsigned l = static_cast<unsigned>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin() - 1);
  return {l, unitsOf(line(l), offset - starts[l], encoding)};
}

Position LineTable::fromLineColumn(unsigned line, unsigned column, Encoding encoding) const {
  if (line == 0) return {0, 0};
  unsigned l = std::min(line - 1, lineCount() - 1);
  size_t bytes = column > 0 ? column - 1 : 0;
  llvm::StringRef text = this->line(l);
  // A column past the end (a caret after the last character) stays past it: one unit per byte beyond.
  unsigned units = unitsOf(text, bytes, encoding);
  if (bytes > text.size()) units += static_cast<unsigned>(bytes - text.size());
  return {l, units};
}

llvm::json::Value tilec::lsp::toJSON(Position p) { return Object{{"line", p.line}, {"character", p.character}}; }

llvm::json::Value tilec::lsp::rangeJSON(Position start, Position end) {
  return Object{{"start", toJSON(start)}, {"end", toJSON(end)}};
}

std::optional<std::string> tilec::lsp::getString(const Object *o, llvm::StringRef key, std::optional<Error> &error) {
  if (o)
    if (std::optional<llvm::StringRef> s = o->getString(key)) return s->str();
  if (!error) error = Error{InvalidParams, ("expected a string '" + key + "'").str()};
  return std::nullopt;
}

std::optional<int64_t> tilec::lsp::getInteger(const Object *o, llvm::StringRef key, std::optional<Error> &error) {
  if (o)
    if (std::optional<int64_t> n = o->getInteger(key)) return n;
  if (!error) error = Error{InvalidParams, ("expected an integer '" + key + "'").str()};
  return std::nullopt;
}

const Object *tilec::lsp::getObject(const Object *o, llvm::StringRef key, std::optional<Error> &error) {
  if (o)
    if (const Object *inner = o->getObject(key)) return inner;
  if (!error) error = Error{InvalidParams, ("expected an object '" + key + "'").str()};
  return nullptr;
}

std::optional<Position> tilec::lsp::getPosition(const Object *params, std::optional<Error> &error) {
  const Object *p = getObject(params, "position", error);
  std::optional<int64_t> line = getInteger(p, "line", error), character = getInteger(p, "character", error);
  if (!line || !character) return std::nullopt;
  if (*line < 0 || *character < 0 || *line > UINT32_MAX || *character > UINT32_MAX) {
    error = Error{InvalidParams, "a position's line and character are unsigned 32-bit integers"};
    return std::nullopt;
  }
  return Position{static_cast<unsigned>(*line), static_cast<unsigned>(*character)};
}

std::optional<std::string> tilec::lsp::getDocumentURI(const Object *params, std::optional<Error> &error) {
  return getString(getObject(params, "textDocument", error), "uri", error);
}
