//===- Transport.cpp - Reading and writing framed messages ------------------===//
//
// POSIX reads and writes on the two descriptors, with a buffer of what has been read but not yet used. Nothing here
// interprets a body: that is the server's job (Server.cpp).
//
//===----------------------------------------------------------------------===//
#include "Transport.h"

#include <algorithm>
#include <cerrno>
#include <poll.h>
#include <unistd.h>

using namespace tilec::lsp;

bool Transport::fill() {
  if (start > 0) {
    buffer.erase(0, start);
    start = 0;
  }
  char chunk[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, chunk, sizeof chunk);
    if (n > 0) {
      buffer.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

bool Transport::readLine(std::string &line) {
  line.clear();
  for (;;) {
    size_t newline = buffer.find('\n', start);
    size_t end = newline == std::string::npos ? buffer.size() : newline;
    size_t room = kMaxHeaderLine - std::min(line.size(), kMaxHeaderLine);
    line.append(buffer, start, std::min(end - start, room));
    if (newline != std::string::npos) {
      start = newline + 1;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return true;
    }
    start = buffer.size();
    if (!fill()) return false;
  }
}

bool Transport::skip(size_t n) {
  for (;;) {
    size_t take = std::min(n, buffer.size() - start);
    start += take;
    n -= take;
    if (n == 0) return true;
    if (!fill()) return false;
  }
}

Transport::Status Transport::read(std::string &body) {
  bool sawHeader = false, haveLength = false, badLength = false;
  unsigned long long length = 0;
  std::string line;
  for (;;) {
    if (!readLine(line)) return Status::End;
    llvm::StringRef text(line);
    if (text.trim().empty()) {
      if (!sawHeader) continue; // blank lines between messages
      break;
    }
    sawHeader = true;
    auto [name, value] = text.split(':');
    if (!name.trim().equals_insensitive("Content-Length")) continue; // Content-Type and anything else
    unsigned long long n = 0;
    if (value.trim().getAsInteger(10, n)) {
      badLength = true;
      continue;
    }
    haveLength = true;
    badLength = false;
    length = n;
  }
  if (!haveLength || badLength) {
    body = "a message header without a valid Content-Length";
    return Status::Malformed;
  }
  if (length > kMaxBody) {
    if (!skip(length)) return Status::End;
    body = "a message of " + std::to_string(length) + " bytes, more than the " + std::to_string(kMaxBody >> 20) +
           " MiB the server reads";
    return Status::Malformed;
  }
  while (buffer.size() - start < length)
    if (!fill()) return Status::End;
  body.assign(buffer, start, length);
  start += length;
  return Status::Message;
}

bool Transport::pending() {
  if (start < buffer.size()) return true;
  pollfd p{in, POLLIN, 0};
  int n;
  do n = ::poll(&p, 1, 0);
  while (n < 0 && errno == EINTR);
  return n > 0; // data, or the end of input (POLLHUP), which read() then reports
}

bool Transport::write(llvm::StringRef body) {
  std::string message = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  message += body;
  const char *p = message.data();
  size_t left = message.size();
  while (left > 0) {
    ssize_t n = ::write(out, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    left -= static_cast<size_t>(n);
  }
  return true;
}
