//===- HtmlWriter.h - Pieces of the HTML report (--emit=html) --------------===//
//
// What every section of the HTML report shares: escaping text into HTML, the colour of a wave, a horizontal bar of
// segments, and the page's head (its CSS, print CSS included) and the small script that highlights a lane's cells.
// The page draws only what the compiler's own structures say; these helpers know nothing of tiles, banks or
// registers.
//
//===----------------------------------------------------------------------===//
#ifndef TILEC_HTMLWRITER_H
#define TILEC_HTMLWRITER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace tilec::html {

/// `text` with &, <, > and " escaped: safe in element content and in a double-quoted attribute.
std::string escape(llvm::StringRef text);

/// The CSS class that colours wave `wave` ("w0" .. "w15"; waves past 16 reuse the palette).
std::string waveClass(unsigned wave);

/// The CSS class of lane `lane`'s shade of its wave's colour (eight shades, lane mod 8).
std::string shadeClass(unsigned lane);

/// The fill colour of hue index `i` of `count` (a register index, a lane group), as an hsl() colour.
std::string hueFill(unsigned i, unsigned count);

/// One part of a bar: its length in units of the bar's scale, a CSS class, and the text of its <title>.
struct Segment {
  double value = 0;
  std::string cls;
  std::string title;
};

/// An SVG bar `width` px wide for `scale` units, its segments side by side from the left, with `label` after it.
/// `mark` adds the class of the binding limiter's outline.
void writeBar(llvm::raw_ostream &os, llvm::ArrayRef<Segment> segments, double scale, unsigned width,
              llvm::StringRef label, bool mark = false);

/// `<!DOCTYPE html>` up to `<body>`: charset, title, the CSS.
void writePageHead(llvm::raw_ostream &os, llvm::StringRef title);
/// The script and `</body></html>`.
void writePageEnd(llvm::raw_ostream &os);

} // namespace tilec::html

#endif
