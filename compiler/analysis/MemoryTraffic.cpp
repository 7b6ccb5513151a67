//===- MemoryTraffic.cpp - The yardstick of memory-bound kernels --------------===//
//
// See MemoryTraffic.h.
//
//===----------------------------------------------------------------------===//
#include "analysis/MemoryTraffic.h"

#include "analysis/AccessPlan.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <map>

using namespace tilec;
using llvm::formatv;

namespace {

int64_t evalIndex(const ir::Index &i, int64_t size) {
  switch (i.kind) {
  case ir::Index::Kind::Const: return i.value;
  case ir::Index::Kind::Scalar: return size; // a dimension (or an i32 scalar): the problem size
  case ir::Index::Kind::BlockRow:
  case ir::Index::Kind::BlockCol:
  case ir::Index::Kind::LoopVar: return 0; // loop bounds from the origin: only the extent matters
  default: break;
  }
  int64_t a = evalIndex(*i.lhs, size), b = evalIndex(*i.rhs, size);
  switch (i.kind) {
  case ir::Index::Kind::Add: return a + b;
  case ir::Index::Kind::Sub: return a - b;
  case ir::Index::Kind::Mul: return a * b;
  case ir::Index::Kind::Div: return b ? a / b : 0;
  case ir::Index::Kind::Rem: return b ? a % b : 0;
  default: return 0;
  }
}

int64_t extent(const ir::Extent &e, int64_t size) { return e.isSymbol() ? size : e.value; }

void collectLoads(const ir::Value &v, std::vector<const ir::Value *> &out) {
  if (v.kind == ir::Value::Kind::Load) out.push_back(&v);
  for (const auto &op : v.operands) collectLoads(*op, out);
}

class Walker {
public:
  explicit Walker(int64_t size) : size(size) {}

  void body(const ir::Body &b, double executions) {
    for (const ir::StmtPtr &s : b) {
      if (auto *f = llvm::dyn_cast<ir::For>(s.get())) {
        int64_t lo = evalIndex(*f->lower, size), hi = evalIndex(*f->upper, size), step = evalIndex(*f->step, size);
        double trips = step > 0 && hi > lo ? static_cast<double>((hi - lo + step - 1) / step) : 0;
        body(f->body, executions * trips);
      } else if (auto *a = llvm::dyn_cast<ir::Assign>(s.get())) {
        std::vector<const ir::Value *> loads;
        collectLoads(*a->value, loads);
        for (const ir::Value *l : loads)
          moved(*l->tensor, *l->row, *l->col, a->dst->rows(), a->dst->cols(), executions, false);
        firstLoads(loads.empty() ? 0 : loads.size() * a->dst->layout.rowsPerLane * a->dst->layout.bytesPerAccess());
      } else if (auto *st = llvm::dyn_cast<ir::Store>(s.get())) {
        const ir::Value &v = *st->value;
        unsigned rows = v.acc ? v.acc->rows : v.reducedAxis == 0 ? 1 : v.layout->rows;
        unsigned cols = v.acc ? v.acc->cols : v.reducedAxis == 1 ? 1 : v.layout->cols;
        if (v.layout && v.layout->oneD) rows = 1, cols = v.layout->rows * v.layout->cols;
        moved(*st->tensor, *st->row, *st->col, rows, cols, executions, true);
        firstLoads(0);
      } else {
        firstLoads(0);
      }
    }
  }

  /// Elements of a rows x cols window of `t` at (row, col) inside the tensor, moved `executions` times per
  /// workgroup (the origins of the first workgroup and of each loop's first step: a window that moves with a loop is
  /// inside as often as its loop's trips say).
  void moved(const ir::Tensor &t, const ir::Index &row, const ir::Index &col, unsigned rows, unsigned cols,
             double executions, bool store) {
    auto inside = [](double origin, double n, double extent) { return std::max(0.0, std::min(n, extent - origin)); };
    double r = t.rank == 1 ? 1 : inside(evalIndex(row, size), rows, extent(t.rows, size));
    double c = t.rank == 1 ? inside(evalIndex(col, size), static_cast<double>(rows) * cols, extent(t.cols, size))
                           : inside(evalIndex(col, size), cols, extent(t.cols, size));
    double bytes = r * c * sizeOf(t.dtype) * executions;
    (store ? written : read)[&t] += bytes;
  }

  /// The loads of consecutive statements at the start: what a lane issues before it first needs a loaded value.
  void firstLoads(unsigned bytes) {
    if (done) return;
    if (bytes) inFlight += bytes, started = true;
    else if (started) done = true;
  }

  int64_t size;
  std::map<const ir::Tensor *, double> read, written;
  unsigned inFlight = 0;
  bool started = false, done = false;
};

} // namespace

MemoryTraffic tilec::memoryTraffic(const ir::Kernel &k, const Target &t, const Occupancy &occupancy, int64_t size) {
  MemoryTraffic m;
  m.problemSize = size;
  const ir::Tensor &g = *k.gridTensor;
  uint64_t cols = k.gridWholeRows ? 1 : (extent(g.cols, size) + k.gridTileCols - 1) / k.gridTileCols;
  uint64_t rows = g.rank == 1 ? 1 : (extent(g.rows, size) + k.gridTileRows - 1) / k.gridTileRows;
  m.workgroups = cols * rows * (k.batched ? extent(g.batch, size) : 1);
  Walker w(size);
  w.body(k.body, 1);
  double gridElements = static_cast<double>(extent(g.rows, size)) * extent(g.cols, size);
  for (const auto &tensor : k.tensors) {
    TensorTraffic tt;
    tt.tensor = tensor.get();
    double elements = static_cast<double>(tensor->rank == 1 ? 1 : extent(tensor->rows, size)) *
                      extent(tensor->cols, size) * (tensor->rank == 3 ? extent(tensor->batch, size) : 1);
    tt.size = elements * sizeOf(tensor->dtype);
    tt.read = w.read[tensor.get()] * m.workgroups;
    tt.written = w.written[tensor.get()] * m.workgroups;
    // A tensor much smaller than the grid's, read whole by every workgroup (a weight row), comes from the caches
    // after the first read: its re-reads are not HBM traffic.
    bool broadcast = elements * 16 <= gridElements;
    if (broadcast && tt.read > tt.size) m.cachedRereads += tt.read - tt.size, tt.read = tt.size;
    m.moved += tt.read + tt.written;
    m.ideal += (tt.read > 0 ? tt.size : 0) + (tt.written > 0 ? tt.size : 0);
    m.tensors.push_back(tt);
  }
  for (const AccessPlan &p : planAccesses(k)) {
    ++m.accesses;
    if (p.bytes == t.maxBytesPerLaneAccess) ++m.wideAccesses;
  }
  m.inFlightPerLane = w.inFlight;
  m.inFlightPerCU = w.inFlight * t.waveSize * occupancy.wavesPerCU;
  m.neededPerCU = static_cast<double>(t.hbmGBPerSecond) * 1e9 / t.computeUnits * t.hbmLatencyNs * 1e-9;
  return m;
}

//===--- Printing ---===//

namespace {

/// Bytes in KiB below a MiB, else in MiB.
std::string mib(double bytes) {
  if (bytes < 1024.0 * 1024.0) return formatv("{0:f1} KiB", bytes / 1024.0).str();
  return formatv("{0:f1} MiB", bytes / (1024.0 * 1024.0)).str();
}

std::string times(double moved, double size) { return formatv("{0:f2}", size > 0 ? moved / size : 0).str(); }

} // namespace

void tilec::printMemoryTraffic(const MemoryTraffic &m, const Target &t, llvm::raw_ostream &os) {
  os << formatv("  memory traffic (every dimension {0}, {1} workgroups):\n", m.problemSize, m.workgroups);
  for (const TensorTraffic &tt : m.tensors) {
    if (tt.read == 0 && tt.written == 0) continue;
    std::string what;
    if (tt.read > 0) what = formatv("read {0} x", times(tt.read, tt.size)).str();
    if (tt.written > 0) what += formatv("{0}written {1} x", what.empty() ? "" : ", ", times(tt.written, tt.size)).str();
    os << formatv("    {0} ({1}): {2}\n", tt.tensor->name, mib(tt.size), what);
  }
  os << formatv("    moved {0}, ideal {1} (each tensor read once and written once): {2} x the ideal\n", mib(m.moved),
                mib(m.ideal), times(m.moved, m.ideal));
  if (m.cachedRereads > 0)
    os << formatv("    plus {0} of re-reads of small tensors that every workgroup reads whole, served by the caches\n",
                  mib(m.cachedRereads));
  os << formatv("    accesses: {0} of {1} are {2} bytes per lane\n", m.wideAccesses, m.accesses,
                t.maxBytesPerLaneAccess);
  if (m.inFlightPerLane)
    os << formatv("    in flight: {0} B per lane before the first wait x 64 lanes x the resident waves = {1} KiB per "
                  "CU; the HBM needs {2:f1} KiB per CU ({3} GB/s / {4} CUs x {5} ns, Little's law): {6}\n",
                  m.inFlightPerLane, m.inFlightPerCU / 1024, m.neededPerCU / 1024, t.hbmGBPerSecond, t.computeUnits,
                  t.hbmLatencyNs,
                  m.inFlightPerCU >= m.neededPerCU ? "enough"
                                                   : formatv("{0:f1} x short", m.neededPerCU / m.inFlightPerCU).str());
}

void tilec::writeMemoryTraffic(const MemoryTraffic &m, llvm::json::OStream &json) {
  json.attributeObject("memory", [&] {
    json.attribute("problem_size", m.problemSize);
    json.attribute("workgroups", static_cast<int64_t>(m.workgroups));
    json.attributeArray("tensors", [&] {
      for (const TensorTraffic &tt : m.tensors)
        json.object([&] {
          json.attribute("tensor", tt.tensor->name);
          json.attribute("bytes", tt.size);
          json.attribute("read", tt.read);
          json.attribute("written", tt.written);
        });
    });
    json.attribute("moved", m.moved);
    json.attribute("ideal", m.ideal);
    json.attribute("cached_rereads", m.cachedRereads);
    json.attribute("accesses", m.accesses);
    json.attribute("wide_accesses", m.wideAccesses);
    json.attribute("in_flight_per_lane", m.inFlightPerLane);
    json.attribute("in_flight_per_cu", m.inFlightPerCU);
    json.attribute("needed_per_cu", m.neededPerCU);
  });
}
