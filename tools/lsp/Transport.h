//===- Transport.h - LSP base protocol: Content-Length framed messages ------===//
//
// The language server's wire: messages over a pair of file descriptors, each a header block (`Content-Length: N`,
// other headers ignored, lines ending in CRLF or LF) followed by N bytes of JSON. Reading never trusts the peer: a
// header line or a body larger than a limit is skipped, not buffered, a header block without a length is skipped, and
// the end of input is reported as such. pending() says, without blocking, whether a message has (partly) arrived, so
// the server can do deferred work (diagnostics) while the client is quiet.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_LSP_TRANSPORT_H
#define TILEC_LSP_TRANSPORT_H

#include "llvm/ADT/StringRef.h"
#include <cstddef>
#include <string>

namespace tilec::lsp {

class Transport {
public:
  Transport(int in, int out) : in(in), out(out) {}

  enum class Status { Message, Malformed, End };
  /// Reads the next message into `body`. Malformed: a header block without a usable Content-Length, or a body over
  /// kMaxBody (skipped); `body` then says why. End: the input ended.
  Status read(std::string &body);
  /// Whether input is waiting: buffered bytes, or bytes ready on the descriptor.
  bool pending();
  /// Writes one framed message; false when the output is gone.
  bool write(llvm::StringRef body);

  /// The largest body read (a document of tens of MB fits).
  static constexpr size_t kMaxBody = 256u << 20;
  /// The longest header line kept; longer ones are read and dropped.
  static constexpr size_t kMaxHeaderLine = 4096;

private:
  /// Fills the buffer with what the descriptor gives; false at the end of input.
  bool fill();
  /// A line without its terminator; false at the end of input. Overlong lines come back cut at kMaxHeaderLine.
  bool readLine(std::string &line);
  /// Skips `n` bytes of input; false at the end of input.
  bool skip(size_t n);

  int in, out;
  std::string buffer;
  size_t start = 0; ///< first unread byte of `buffer`
};

} // namespace tilec::lsp

#endif
