//===- HtmlWriter.cpp - Escaping, colours, bars and the page's frame --------===//
#include "driver/HtmlWriter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace tilec;
using llvm::formatv;

namespace {

/// Sixteen wave colours, neighbours far apart in hue so that adjacent waves are told apart in print too.
constexpr const char *kWaveColours[16] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                                          "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b",
                                          "#17becf", "#bcbd22", "#7f7f7f", "#d62728"};

/// The page's CSS: screen first, then what printing changes (no shadows, sections kept whole, links spelled out).
constexpr const char *kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 0 16px 40px; color: #222; }
h1 { font-size: 22px; margin: 18px 0 4px; } h2 { font-size: 19px; border-bottom: 2px solid #888; margin-top: 32px; }
h3 { font-size: 16px; margin: 22px 0 6px; } h4 { font-size: 14px; margin: 14px 0 4px; }
pre, code { font: 12px/1.35 ui-monospace, monospace; } pre { background: #f4f4f4; padding: 6px 8px; overflow-x: auto; }
nav a { margin-right: 12px; } figure { margin: 8px 0 18px; } figcaption { margin: 4px 0; }
.scroll { overflow-x: auto; max-width: 100%; }
.note { color: #555; } .absent { color: #8a4b00; background: #fff6e8; padding: 6px 8px; }
svg text { font: 10px ui-monospace, monospace; fill: #222; }
svg .cell { stroke: #fff; stroke-width: 0.5; }
svg .cell.lit { stroke: #000; stroke-width: 2; }
svg .outline { fill: none; stroke: #000; stroke-width: 2.5; }
svg .conflict { stroke: #c00; stroke-width: 2.5; }
svg .bank { fill: #4e79a7; } svg .bank.conflict { fill: #e15759; }
svg text.count.over { fill: #c00; font-weight: bold; }
svg .pad { fill: #ddd; } svg .data { fill: #a6c8e5; } svg .grid { stroke: #bbb; stroke-width: 0.5; fill: none; }
svg .seg0 { fill: #4e79a7; } svg .seg1 { fill: #a0cbe8; } svg .seg2 { fill: #f28e2b; } svg .seg3 { fill: #ffbe7d; }
svg .seg4 { fill: #59a14f; } svg .seg5 { fill: #8cd17d; } svg .seg6 { fill: #b6992d; } svg .seg7 { fill: #f1ce63; }
svg .compiler { fill: #555; } svg .limit { fill: #9ab; } svg .limit.binding { fill: #e15759; }
svg .mfma { fill: #e15759; } svg .valu { fill: #4e79a7; } svg .lds { fill: #59a14f; } svg .vmem { fill: #f28e2b; }
svg .salu { fill: #bab0ac; } svg .wait { fill: #76b7b2; } svg .other { fill: #ddd; }
svg .barframe { fill: none; stroke: #888; stroke-width: 0.5; } svg .marked { stroke: #000; stroke-width: 2; }
table { border-collapse: collapse; margin: 6px 0; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
td:first-child, th:first-child { text-align: left; }
.legend span { display: inline-block; margin-right: 10px; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 4px; vertical-align: -1px; }
@media print {
  body { max-width: none; font-size: 11px; } nav { display: none; } pre { white-space: pre-wrap; }
  .scroll { overflow: visible; } .scroll svg { max-width: 100%; height: auto; } /* wide pictures scaled to the page */
  h2 { break-before: page; } figure, table, pre { break-inside: avoid; }
  pre { background: none; border: 1px solid #ccc; }
  svg .cell { stroke: #fff; } * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
)css";

/// Hovering a cell outlines every cell of the same workgroup thread (or lane) in that picture.
constexpr const char *kScript = R"js(
document.querySelectorAll('svg[data-lanes]').forEach(function (svg) {
  var lit = [];
  svg.addEventListener('mouseover', function (e) {
    var id = e.target.getAttribute && e.target.getAttribute('data-t');
    lit.forEach(function (c) { c.classList.remove('lit'); });
    lit = id === null ? [] : Array.prototype.slice.call(svg.querySelectorAll('[data-t="' + id + '"]'));
    lit.forEach(function (c) { c.classList.add('lit'); });
  });
});
)js";

} // namespace

std::string html::escape(llvm::StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

std::string html::waveClass(unsigned wave) { return "w" + std::to_string(wave % 16); }

std::string html::shadeClass(unsigned lane) { return "s" + std::to_string(lane % 8); }

std::string html::hueFill(unsigned i, unsigned count) {
  unsigned hue = count ? (i * 360 / count) % 360 : 0;
  return formatv("hsl({0},{1}%,{2}%)", hue, 60, i % 2 ? 62 : 72).str();
}

void html::writeBar(llvm::raw_ostream &os, llvm::ArrayRef<Segment> segments, double scale, unsigned width,
                    llvm::StringRef label, bool mark) {
  // The label's room: 10 px monospace characters are about 6.1 px wide.
  const unsigned height = 16, labelWidth = 12 + static_cast<unsigned>(label.size() * 6.2);
  os << formatv("<svg width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\">",
                width + labelWidth, height + 2, escape(label));
  double x = 0;
  for (const Segment &s : segments) {
    double w = scale > 0 ? s.value * width / scale : 0;
    os << formatv("<rect class=\"{0}\" x=\"{1:F1}\" y=\"1\" width=\"{2:F1}\" height=\"{3}\"><title>{4}</title></rect>",
                  s.cls, x, w, height, escape(s.title));
    x += w;
  }
  os << formatv("<rect class=\"barframe{0}\" x=\"0\" y=\"1\" width=\"{1}\" height=\"{2}\"/>", mark ? " marked" : "",
                width, height);
  os << formatv("<text x=\"{0}\" y=\"{1}\">{2}</text></svg>\n", width + 6, height - 3, escape(label));
}

void html::writePageHead(llvm::raw_ostream &os, llvm::StringRef title) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  os << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  os << "<title>" << escape(title) << "</title>\n<style>" << kStyle;
  for (unsigned w = 0; w < 16; ++w) os << formatv("svg .w{0} {{ fill: {1}; }\n", w, kWaveColours[w]);
  // The MFMA pictures colour each of a wave's 64 lanes.
  for (unsigned l = 0; l < 64; ++l) os << formatv("svg .h{0} {{ fill: {1}; }\n", l, hueFill(l, 64));
  // A lane's shade within its wave's colour (shadeClass), so that neighbouring lanes are told apart.
  for (unsigned l = 0; l < 8; ++l) os << formatv("svg .s{0} {{ fill-opacity: {1:F2}; }\n", l, 0.45 + 0.55 * l / 7);
  os << "</style>\n</head>\n<body>\n";
}

void html::writePageEnd(llvm::raw_ostream &os) { os << "<script>" << kScript << "</script>\n</body>\n</html>\n"; }
