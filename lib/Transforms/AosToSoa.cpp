//===- AosToSoa.cpp - array of records to one array per field -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-aos-to-soa: record arrays become one array per
// field where the traffic model says that moves fewer DRAM sectors.
// Arguments read at a few constant fields become one argument per used
// field; intermediates produced by a generic over the records and read at
// constant fields become one tensor per used field (unused fields are never
// computed); results whose producer copies some fields from an input record
// become one result per computed field, the copies left to the host. The
// mappings are recorded for the launch manifest.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/Traffic.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <map>
#include <set>

namespace mlir::memopt {
#define GEN_PASS_DEF_MEMOPTAOSTOSOAPASS
#include "memopt/Transforms/Passes.h.inc"
} // namespace mlir::memopt

using namespace mlir;
using namespace mlir::memopt;

namespace {
/// A record-array argument and the fields its uses read.
struct RecordArg {
  unsigned index;
  int64_t record;
  std::set<int64_t> fields;
};
} // namespace

/// The constant field of a record (of `record` fields) that generic input
/// `use` reads, the records indexed by plain loop dimensions; else failure
/// with `why`.
static FailureOr<int64_t> getReadField(linalg::GenericOp generic,
                                       OpOperand &use, int64_t record,
                                       std::string &why) {
  AffineMap map = generic.getMatchingIndexingMap(&use);
  auto field = dyn_cast<AffineConstantExpr>(map.getResults().back());
  if (!field) {
    why = "a use reads a field chosen at run time";
    return failure();
  }
  if (field.getValue() < 0 || field.getValue() >= record) {
    why = "a use reads outside the record";
    return failure();
  }
  if (!llvm::all_of(map.getResults().drop_back(),
                    llvm::IsaPred<AffineDimExpr>)) {
    why = "a use indexes the records with a non-trivial expression";
    return failure();
  }
  return field.getValue();
}

/// Checks that every use of `arg` reads a constant field; fills `fields`.
static LogicalResult collectFields(BlockArgument arg, int64_t record,
                                   std::set<int64_t> &fields,
                                   std::string &why) {
  for (OpOperand &use : arg.getUses()) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!generic || !generic.isDpsInput(&use)) {
      why = "it is used other than as a linalg.generic input";
      return failure();
    }
    FailureOr<int64_t> field = getReadField(generic, use, record, why);
    if (failed(field))
      return failure();
    fields.insert(*field);
  }
  return success();
}

/// DRAM bytes of reading `fields` of every record (the traffic model's
/// figure) versus the fields alone.
static bool isProfitable(RankedTensorType type, const std::set<int64_t> &fields,
                         int64_t sectorBytes, std::string &why) {
  int64_t eltBytes =
      std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  int64_t record = type.getShape().back();
  int64_t records = type.getNumElements() / record;
  SmallVector<int64_t> positions(fields.begin(), fields.end());
  int64_t aos = getRecordFieldBytes(records, record, eltBytes, positions,
                                    eltBytes, sectorBytes);
  int64_t soa = records * static_cast<int64_t>(fields.size()) * eltBytes;
  if (soa >= aos) {
    why = fields.size() == static_cast<size_t>(record)
              ? "every field is used, so the records are read contiguously"
              : "the fields alone would not move fewer DRAM sectors";
    return false;
  }
  return true;
}

/// Replaces the uses of `records` (linalg.generic inputs at constant fields)
/// by per-field values from `fieldValue`; skips the uses owned by `skip`.
static void rewriteUses(Value records,
                        const std::map<int64_t, Value> &fieldValue,
                        Operation *skip = nullptr) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : records.getUses())
    if (use.getOwner() != skip)
      uses.push_back(&use);
  for (OpOperand *use : uses) {
    auto generic = cast<linalg::GenericOp>(use->getOwner());
    unsigned idx = use->getOperandNumber();
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    AffineMap map = maps[idx];
    int64_t field =
        cast<AffineConstantExpr>(map.getResults().back()).getValue();
    maps[idx] = map.dropResult(map.getNumResults() - 1);
    use->set(fieldValue.at(field));
    generic.setIndexingMapsAttr(
        OpBuilder(generic).getAffineMapArrayAttr(maps));
  }
}

//===----------------------------------------------------------------------===//
// Record producers: generics that write every field of a record array
//===----------------------------------------------------------------------===//

/// True if `v` is linalg.index `dim` (or an index_cast of it).
static bool isRecordIndex(Value v, unsigned dim) {
  if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
    v = cast.getIn();
  auto idx = v.getDefiningOp<linalg::IndexOp>();
  return idx && idx.getDim() == dim;
}

/// The value of condition `cond` of a producer body when its record loop
/// `dim` is at `field`: an i1 constant, or a cmpi of the record index with a
/// constant. Nothing when it depends on anything else.
static std::optional<bool> evalAtField(Value cond, unsigned dim,
                                       int64_t field) {
  APInt c;
  if (matchPattern(cond, m_ConstantInt(&c)))
    return !c.isZero();
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  auto operand = [&](Value v) -> std::optional<APInt> {
    if (isRecordIndex(v, dim))
      return APInt(64, field, /*isSigned=*/true);
    APInt k;
    if (matchPattern(v, m_ConstantInt(&k)))
      return k.sextOrTrunc(64);
    return std::nullopt;
  };
  std::optional<APInt> l = operand(cmp.getLhs()), r = operand(cmp.getRhs());
  if (!l || !r)
    return std::nullopt;
  return arith::applyCmpPredicate(cmp.getPredicate(), *l, *r);
}

/// Looks through the selects of a producer body whose condition is known
/// when the record loop `dim` is at `field`.
static Value resolveAtField(Value v, unsigned dim, int64_t field) {
  while (auto sel = v.getDefiningOp<arith::SelectOp>()) {
    std::optional<bool> c = evalAtField(sel.getCondition(), dim, field);
    if (!c)
      break;
    v = *c ? sel.getTrueValue() : sel.getFalseValue();
  }
  return v;
}

/// `map` with its last dimension (the record loop) fixed at `field` and
/// dropped.
static AffineMap fixRecordDim(AffineMap map, int64_t field) {
  MLIRContext *ctx = map.getContext();
  unsigned dim = map.getNumDims() - 1;
  SmallVector<AffineExpr> repl;
  for (unsigned d = 0; d < dim; ++d)
    repl.push_back(getAffineDimExpr(d, ctx));
  repl.push_back(getAffineConstantExpr(field, ctx));
  return map.replaceDimsAndSymbols(repl, {}, dim, map.getNumSymbols());
}

namespace {
/// A linalg.generic writing a whole record array (its only result, identity
/// output map, the record as its last parallel loop), and for each field the
/// part of its body that computes it.
struct RecordProducer {
  /// Op handles are cheap copies; mutable so that const helpers can query.
  mutable linalg::GenericOp op;
  unsigned dim = 0;
  int64_t record = 0;
  /// Whether the body reads the record loop's index (computes fields
  /// differently); a plain elementwise op over a matrix does not.
  bool usesRecordIndex = false;
  /// Per field: the body ops it needs, in block order, and the input
  /// operand numbers it reads.
  SmallVector<SmallVector<Operation *>> ops;
  SmallVector<llvm::SmallSetVector<unsigned, 4>> inputs;
  /// Per field: the yielded value with known selects looked through.
  SmallVector<Value> yielded;
};
} // namespace

/// Matches the producer of record array `records`; on failure `why` says
/// what stops the split.
static LogicalResult matchRecordProducer(Value records, RecordProducer &p,
                                         std::string &why) {
  auto g = records.getDefiningOp<linalg::GenericOp>();
  if (!g) {
    why = "it is not produced by a linalg.generic";
    return failure();
  }
  if (g.getNumDpsInits() != 1) {
    why = "its producer writes more than one tensor";
    return failure();
  }
  if (g.getNumReductionLoops() != 0) {
    why = "its producer has reduction loops";
    return failure();
  }
  if (!g.getIndexingMapMatchingResult(cast<OpResult>(records)).isIdentity()) {
    why = "its producer does not write each record element once";
    return failure();
  }
  Block *body = g.getBody();
  if (!g.getRegionOutputArgs()[0].use_empty()) {
    why = "its producer reads the records it writes";
    return failure();
  }
  p.op = g;
  p.dim = g.getNumLoops() - 1;
  p.record = cast<RankedTensorType>(records.getType()).getShape().back();
  AffineExpr fieldExpr = getAffineDimExpr(p.dim, g.getContext());
  for (OpOperand *in : g.getDpsInputOperands())
    for (AffineExpr e : g.getMatchingIndexingMap(in).getResults())
      if (e.isFunctionOfDim(p.dim) && e != fieldExpr) {
        why = "its producer indexes an input with an expression of the field";
        return failure();
      }
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions()) {
      why = "its producer's body has nested regions";
      return failure();
    }
    if (auto idx = dyn_cast<linalg::IndexOp>(op))
      p.usesRecordIndex |= idx.getDim() == p.dim;
  }
  Value yield = body->getTerminator()->getOperand(0);
  for (int64_t f = 0; f < p.record; ++f) {
    llvm::SetVector<Operation *> ops;
    llvm::SmallSetVector<unsigned, 4> ins;
    SmallVector<Value> work{yield};
    while (!work.empty()) {
      Value v = resolveAtField(work.pop_back_val(), p.dim, f);
      if (auto arg = dyn_cast<BlockArgument>(v)) {
        if (arg.getOwner() == body)
          ins.insert(arg.getArgNumber());
        continue;
      }
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != body || !ops.insert(def))
        continue;
      llvm::append_range(work, def->getOperands());
    }
    SmallVector<Operation *> ordered(ops.begin(), ops.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    p.ops.push_back(std::move(ordered));
    p.inputs.push_back(std::move(ins));
    p.yielded.push_back(resolveAtField(yield, p.dim, f));
  }
  return success();
}

/// Field `field` of the producer is a copy of field `sourceField` of
/// function argument `source` (same type as the records), or nothing.
static std::optional<std::pair<unsigned, int64_t>>
getPassThrough(const RecordProducer &p, int64_t field) {
  auto arg = dyn_cast<BlockArgument>(p.yielded[field]);
  if (!arg || arg.getOwner() != p.op.getBody() ||
      arg.getArgNumber() >= p.op.getNumDpsInputs())
    return std::nullopt;
  OpOperand *in = p.op.getDpsInputOperand(arg.getArgNumber());
  auto src = dyn_cast<BlockArgument>(in->get());
  if (!src || !isa<FunctionOpInterface>(src.getOwner()->getParentOp()) ||
      src.getType() != p.op.getResult(0).getType())
    return std::nullopt;
  AffineMap map = fixRecordDim(p.op.getMatchingIndexingMap(in), field);
  if (map.getNumResults() != p.dim + 1)
    return std::nullopt;
  for (unsigned d = 0; d < p.dim; ++d)
    if (map.getResult(d) != getAffineDimExpr(d, map.getContext()))
      return std::nullopt;
  auto c = dyn_cast<AffineConstantExpr>(map.getResults().back());
  if (!c)
    return std::nullopt;
  return std::make_pair(src.getArgNumber(), c.getValue());
}

/// Modelled DRAM bytes of the producer's reads when it computes `fields`:
/// an input read at constant fields costs those fields of its records
/// (getRecordFieldBytes), any other input all of its bytes.
static int64_t getProducerReadBytes(const RecordProducer &p,
                                    ArrayRef<int64_t> fields,
                                    int64_t sectorBytes) {
  llvm::MapVector<Value, std::set<int64_t>> recordReads;
  llvm::SetVector<Value> wholeReads;
  for (int64_t f : fields)
    for (unsigned k : p.inputs[f]) {
      OpOperand *in = p.op.getDpsInputOperand(k);
      AffineMap map = fixRecordDim(p.op.getMatchingIndexingMap(in), f);
      auto type = dyn_cast<RankedTensorType>(in->get().getType());
      if (!type)
        continue;
      auto c = map.getNumResults()
                   ? dyn_cast<AffineConstantExpr>(map.getResults().back())
                   : AffineConstantExpr();
      if (c && type.getRank() >= 2)
        recordReads[in->get()].insert(c.getValue());
      else
        wholeReads.insert(in->get());
    }
  int64_t bytes = 0;
  for (Value v : wholeReads) {
    auto type = cast<RankedTensorType>(v.getType());
    bytes += type.getNumElements() *
             std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  for (auto &[v, read] : recordReads) {
    if (wholeReads.contains(v))
      continue;
    auto type = cast<RankedTensorType>(v.getType());
    int64_t elt = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
    int64_t record = type.getShape().back();
    SmallVector<int64_t> positions(read.begin(), read.end());
    bytes += getRecordFieldBytes(type.getNumElements() / record, record, elt,
                                 positions, elt, sectorBytes);
  }
  return bytes;
}

/// Builds, before the producer, one generic that computes `fields` of its
/// records as separate tensors of the leading shape: the record loop is
/// fixed per field (its index a constant, known selects resolved) and each
/// field gets only the body ops and inputs it needs. Returns the tensors in
/// the order of `fields`.
static SmallVector<Value> buildFieldGeneric(OpBuilder &b,
                                            const RecordProducer &p,
                                            ArrayRef<int64_t> fields) {
  linalg::GenericOp g = p.op;
  Location loc = g.getLoc();
  auto recType = cast<RankedTensorType>(g.getResult(0).getType());
  auto fieldType = RankedTensorType::get(recType.getShape().drop_back(),
                                         recType.getElementType());
  // Inputs with the field fixed in their maps, deduplicated.
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  SmallVector<DenseMap<unsigned, unsigned>> argOf(fields.size());
  for (auto [i, f] : llvm::enumerate(fields))
    for (unsigned k : p.inputs[f]) {
      OpOperand *in = g.getDpsInputOperand(k);
      AffineMap map = fixRecordDim(g.getMatchingIndexingMap(in), f);
      unsigned n = 0;
      while (n < ins.size() && !(ins[n] == in->get() && maps[n] == map))
        ++n;
      if (n == ins.size()) {
        ins.push_back(in->get());
        maps.push_back(map);
      }
      argOf[i][k] = n;
    }
  SmallVector<Value> outs;
  for (size_t i = 0; i < fields.size(); ++i)
    outs.push_back(tensor::EmptyOp::create(b, loc, fieldType.getShape(),
                                           fieldType.getElementType()));
  maps.append(fields.size(), b.getMultiDimIdentityMap(p.dim));
  SmallVector<utils::IteratorType> iters(p.dim,
                                         utils::IteratorType::parallel);
  SmallVector<Type> types(fields.size(), fieldType);
  Block *body = g.getBody();
  Value yield = body->getTerminator()->getOperand(0);
  auto split = linalg::GenericOp::create(
      b, loc, types, ins, outs, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        SmallVector<Value> yields;
        for (auto [i, f] : llvm::enumerate(fields)) {
          IRMapping map;
          for (auto [k, n] : argOf[i])
            map.map(body->getArgument(k), args[n]);
          for (Operation *op : p.ops[f]) {
            if (auto idx = dyn_cast<linalg::IndexOp>(op);
                idx && idx.getDim() == p.dim) {
              map.map(idx.getResult(),
                      arith::ConstantIndexOp::create(nb, l, f).getResult());
              continue;
            }
            for (Value o : op->getOperands())
              if (Value r = resolveAtField(o, p.dim, f); r != o)
                map.map(o, map.lookupOrDefault(r));
            nb.clone(*op, map);
          }
          yields.push_back(
              map.lookupOrDefault(resolveAtField(yield, p.dim, f)));
        }
        linalg::YieldOp::create(nb, l, yields);
      });
  return llvm::to_vector_of<Value>(split.getResults());
}

/// Builds a generic writing records of `recType` from one source per field:
/// a field tensor (leading shape) or a record array read at a constant
/// field. The body selects the source by the record loop's index.
static Value buildPackGeneric(OpBuilder &b, Location loc,
                              RankedTensorType recType,
                              ArrayRef<std::pair<Value, int64_t>> sources) {
  MLIRContext *ctx = b.getContext();
  unsigned rank = recType.getRank();
  SmallVector<Value> ins;
  SmallVector<AffineMap> maps;
  for (auto [v, field] : sources) {
    SmallVector<AffineExpr> exprs;
    for (unsigned d = 0; d + 1 < rank; ++d)
      exprs.push_back(b.getAffineDimExpr(d));
    if (field >= 0)
      exprs.push_back(b.getAffineConstantExpr(field));
    ins.push_back(v);
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value empty = tensor::EmptyOp::create(b, loc, recType.getShape(),
                                        recType.getElementType());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  auto pack = linalg::GenericOp::create(
      b, loc, TypeRange{recType}, ins, ValueRange{empty}, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value idx = linalg::IndexOp::create(nb, l, rank - 1);
        Value v = args[sources.size() - 1];
        for (int64_t f = static_cast<int64_t>(sources.size()) - 2; f >= 0;
             --f) {
          Value c = arith::ConstantIndexOp::create(nb, l, f);
          Value eq = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                           idx, c);
          v = arith::SelectOp::create(nb, l, eq, args[f], v);
        }
        linalg::YieldOp::create(nb, l, v);
      });
  return pack.getResult(0);
}

/// True for the ops that view a tensor's elements under another shape
/// (splitting the records would leave the view dangling).
static bool isView(Operation *op) {
  return isa<tensor::ExtractSliceOp, tensor::InsertSliceOp,
             tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ReshapeOp, tensor::CastOp, tensor::BitcastOp>(op) ||
         (op->getDialect() &&
          op->getDialect()->getNamespace() == "memref") ||
         isa<ViewLikeOpInterface>(op);
}

/// Checks that every use of intermediate `records` reads a constant field of
/// each record as a linalg.generic input; fills the fields per consumer.
static LogicalResult
collectConsumerFields(Value records, int64_t record,
                      llvm::MapVector<Operation *, std::set<int64_t>> &reads,
                      std::string &why) {
  for (OpOperand &use : records.getUses()) {
    Operation *owner = use.getOwner();
    if (isView(owner)) {
      why = "it is viewed through " + owner->getName().getStringRef().str() +
            ", which would alias the records";
      return failure();
    }
    auto generic = dyn_cast<linalg::GenericOp>(owner);
    if (!generic) {
      why = "it is used by " + owner->getName().getStringRef().str() +
            ", not by a linalg.generic";
      return failure();
    }
    if (!generic.isDpsInput(&use)) {
      why = "a linalg.generic writes into it";
      return failure();
    }
    FailureOr<int64_t> field = getReadField(generic, use, record, why);
    if (failed(field))
      return failure();
    reads[owner].insert(*field);
  }
  return success();
}

/// Whether some use of `v` is a linalg.generic input at a constant last
/// index: what makes a tensor look like an array of records at all.
static bool hasConstantFieldUse(Value v) {
  return llvm::any_of(v.getUses(), [](OpOperand &use) {
    auto g = dyn_cast<linalg::GenericOp>(use.getOwner());
    return g && g.isDpsInput(&use) &&
           isa<AffineConstantExpr>(
               g.getMatchingIndexingMap(&use).getResults().back());
  });
}

namespace {
struct MemoptAosToSoaPass final
    : memopt::impl::MemoptAosToSoaPassBase<MemoptAosToSoaPass> {
  using Base::Base;

  // Declared here rather than in Passes.td so that adding them does not
  // regenerate every pass declaration (see docs/NOTES.md).
  Statistic numIntermediates{this, "num-intermediates",
                             "Intermediate record arrays split into fields"};
  Statistic numResults{this, "num-results",
                       "Record-array results split into fields"};

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Intermediates and results first: their split producers may read
      // record arguments at constant fields, which the argument step then
      // splits too.
      splitIntermediates(func);
      splitResults(func);
      if (failed(convert(func)))
        return signalPassFailure();
    }
  }

  /// Splits record arrays produced and consumed inside `func`.
  void splitIntermediates(func::FuncOp func) {
    SmallVector<linalg::GenericOp> producers;
    func.walk([&](linalg::GenericOp g) { producers.push_back(g); });
    for (linalg::GenericOp g : producers) {
      if (g.getNumResults() != 1)
        continue;
      Value records = g.getResult(0);
      auto type = dyn_cast<RankedTensorType>(records.getType());
      if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
          type.getShape().back() < 2 || !hasConstantFieldUse(records))
        continue;
      int64_t record = type.getShape().back();
      auto refuse = [&](const std::string &why) {
        g.emitRemark() << "intermediate kept as an array of records: " << why;
      };
      if (record > maxRecordFields) {
        refuse("its records of " + std::to_string(record) +
               " fields are over max-record-fields (" +
               std::to_string(maxRecordFields) + ")");
        continue;
      }
      llvm::MapVector<Operation *, std::set<int64_t>> reads;
      RecordProducer p;
      std::string why;
      if (failed(collectConsumerFields(records, record, reads, why)) ||
          failed(matchRecordProducer(records, p, why))) {
        refuse(why);
        continue;
      }
      std::set<int64_t> used;
      for (auto &[op, fields] : reads)
        used.insert(fields.begin(), fields.end());
      SmallVector<int64_t> all, usedList(used.begin(), used.end());
      for (int64_t f = 0; f < record; ++f)
        all.push_back(f);
      // AoS: the producer writes whole records, each consumer reads the
      // sectors of its fields. SoA: only the used fields, contiguously.
      int64_t elt = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      int64_t records_ = type.getNumElements() / record;
      int64_t aos = getProducerReadBytes(p, all, sectorBytes) +
                    records_ * record * elt;
      int64_t soa = getProducerReadBytes(p, usedList, sectorBytes) +
                    records_ * static_cast<int64_t>(used.size()) * elt;
      for (auto &[op, fields] : reads) {
        SmallVector<int64_t> positions(fields.begin(), fields.end());
        aos += getRecordFieldBytes(records_, record, elt, positions, elt,
                                   sectorBytes);
        soa += records_ * static_cast<int64_t>(fields.size()) * elt;
      }
      if (soa >= aos) {
        refuse("every field is used and read contiguously, so per-field "
               "arrays would not move fewer DRAM sectors");
        continue;
      }
      OpBuilder b(g);
      SmallVector<Value> split = buildFieldGeneric(b, p, usedList);
      std::map<int64_t, Value> fieldValue;
      for (auto [f, v] : llvm::zip(usedList, split))
        fieldValue[f] = v;
      rewriteUses(records, fieldValue);
      g.erase();
      ++numIntermediates;
    }
  }

  /// Splits record-array results whose producer computes fields by the
  /// record index, when some fields are copies of an input record (the
  /// runtime fills those on the host).
  void splitResults(func::FuncOp func) {
    auto ret = dyn_cast<func::ReturnOp>(func.getBody().back().getTerminator());
    if (!ret || !func.getBody().hasOneBlock())
      return;
    MLIRContext *ctx = &getContext();
    OpBuilder b(ret);
    SmallVector<Value> newValues;
    SmallVector<Type> newTypes;
    SmallVector<DictionaryAttr> newAttrs;
    SmallVector<Attribute> passThrough;
    SmallVector<Operation *> dead;
    bool changed = false;
    for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
      auto keep = [&]() {
        newValues.push_back(v);
        newTypes.push_back(v.getType());
        newAttrs.push_back(func.getResultAttrDict(i));
      };
      auto type = dyn_cast<RankedTensorType>(v.getType());
      RecordProducer p;
      std::string why;
      if (!type || type.getRank() < 2 || !type.hasStaticShape() ||
          type.getShape().back() < 2 ||
          type.getShape().back() > maxRecordFields ||
          failed(matchRecordProducer(v, p, why)) || !p.usesRecordIndex) {
        keep();
        continue;
      }
      auto refuse = [&](const std::string &why) {
        func.emitRemark() << "result " << i
                          << " kept as an array of records: " << why;
        keep();
      };
      if (!v.hasOneUse()) {
        refuse("it is also used inside the function");
        continue;
      }
      SmallVector<int64_t> all, computed;
      std::map<int64_t, std::pair<unsigned, int64_t>> copies;
      for (int64_t f = 0; f < p.record; ++f) {
        all.push_back(f);
        if (auto src = getPassThrough(p, f))
          copies[f] = *src;
        else
          computed.push_back(f);
      }
      if (computed.empty()) {
        refuse("it is a copy of an argument");
        continue;
      }
      // AoS: the kernel reads what every field needs and writes whole
      // records. SoA: fields copied from an input record are filled on the
      // host, so the kernel reads and writes only the computed ones.
      int64_t elt = std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
      int64_t records = type.getNumElements() / p.record;
      int64_t aos = getProducerReadBytes(p, all, sectorBytes) +
                    records * p.record * elt;
      int64_t soa = getProducerReadBytes(p, computed, sectorBytes) +
                    records * static_cast<int64_t>(computed.size()) * elt;
      if (soa >= aos) {
        refuse("every field is computed on the device and the records are "
               "written contiguously, so per-field arrays would not move "
               "fewer DRAM sectors");
        continue;
      }
      b.setInsertionPoint(p.op);
      SmallVector<Value> split = buildFieldGeneric(b, p, computed);
      dead.push_back(p.op);
      changed = true;
      ++numResults;
      if (keepSignature) {
        SmallVector<std::pair<Value, int64_t>> sources;
        for (int64_t f = 0, c = 0; f < p.record; ++f) {
          if (copies.count(f))
            sources.push_back({func.getArgument(copies[f].first),
                               copies[f].second});
          else
            sources.push_back({split[c++], -1});
        }
        newValues.push_back(buildPackGeneric(b, p.op.getLoc(), type, sources));
        newTypes.push_back(type);
        newAttrs.push_back(func.getResultAttrDict(i));
        continue;
      }
      for (auto [f, s] : llvm::zip(computed, split)) {
        newValues.push_back(s);
        newTypes.push_back(s.getType());
        newAttrs.push_back(DictionaryAttr::get(
            ctx, {b.getNamedAttr(
                     "memopt.aos_field",
                     DictionaryAttr::get(
                         ctx, {b.getNamedAttr("source",
                                              b.getI64IntegerAttr(i)),
                               b.getNamedAttr("record",
                                              b.getI64IntegerAttr(p.record)),
                               b.getNamedAttr("field",
                                              b.getI64IntegerAttr(f))}))}));
      }
      for (auto &[f, src] : copies)
        passThrough.push_back(DictionaryAttr::get(
            ctx, {b.getNamedAttr("result", b.getI64IntegerAttr(i)),
                  b.getNamedAttr("field", b.getI64IntegerAttr(f)),
                  b.getNamedAttr("source", b.getI64IntegerAttr(src.first)),
                  b.getNamedAttr("source_field",
                                 b.getI64IntegerAttr(src.second))}));
    }
    if (!changed)
      return;
    ret->setOperands(newValues);
    for (Operation *op : dead)
      op->erase();
    func.setType(FunctionType::get(ctx, func.getArgumentTypes(), newTypes));
    func.setAllResultAttrs(newAttrs);
    if (!passThrough.empty())
      func->setAttr("memopt.aos_pass_through", b.getArrayAttr(passThrough));
  }

  /// Splits record-array arguments read at a few constant fields.
  LogicalResult convert(func::FuncOp func) {
    SmallVector<RecordArg> candidates;
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() < 2 || !type.hasStaticShape())
        continue;
      int64_t record = type.getShape().back();
      if (record < 2 || arg.use_empty())
        continue;
      RecordArg cand{arg.getArgNumber(), record, {}};
      std::string why;
      // Only arguments indexed at constant fields look like records at all;
      // say why others that do are left alone.
      bool anyConstant = llvm::any_of(arg.getUses(), [&](OpOperand &use) {
        auto g = dyn_cast<linalg::GenericOp>(use.getOwner());
        return g && isa<AffineConstantExpr>(
                        g.getMatchingIndexingMap(&use).getResults().back());
      });
      if (!anyConstant)
        continue;
      if (record > maxRecordFields) {
        func.emitRemark() << "argument " << arg.getArgNumber()
                          << " kept as an array of records: its records of "
                          << record << " fields are over max-record-fields ("
                          << unsigned(maxRecordFields) << ")";
        continue;
      }
      if (failed(collectFields(arg, record, cand.fields, why)) ||
          !isProfitable(type, cand.fields, sectorBytes, why)) {
        func.emitRemark() << "argument " << arg.getArgNumber()
                          << " kept as an array of records: " << why;
        continue;
      }
      candidates.push_back(cand);
    }
    if (candidates.empty())
      return success();
    MLIRContext *ctx = &getContext();
    Block &entry = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    // Process from the last argument so earlier indices stay valid.
    for (RecordArg &cand : llvm::reverse(candidates)) {
      BlockArgument arg = func.getArgument(cand.index);
      auto type = cast<RankedTensorType>(arg.getType());
      auto fieldType = RankedTensorType::get(type.getShape().drop_back(),
                                             type.getElementType());
      std::map<int64_t, Value> fieldValue;
      Location loc = arg.getLoc();
      if (keepSignature) {
        unsigned rank = fieldType.getRank();
        SmallVector<utils::IteratorType> iters(
            rank, utils::IteratorType::parallel);
        for (int64_t f : cand.fields) {
          Value empty = tensor::EmptyOp::create(
              b, loc, fieldType.getShape(), fieldType.getElementType());
          SmallVector<AffineExpr> exprs;
          for (unsigned d = 0; d < rank; ++d)
            exprs.push_back(b.getAffineDimExpr(d));
          exprs.push_back(b.getAffineConstantExpr(f));
          AffineMap in = AffineMap::get(rank, 0, exprs, ctx);
          AffineMap out = b.getMultiDimIdentityMap(rank);
          auto extract = linalg::GenericOp::create(
              b, loc, TypeRange{fieldType}, ValueRange{arg},
              ValueRange{empty}, ArrayRef<AffineMap>{in, out}, iters,
              [](OpBuilder &nb, Location l, ValueRange args) {
                linalg::YieldOp::create(nb, l, args[0]);
              });
          fieldValue[f] = extract.getResult(0);
        }
        // The extraction ops themselves read the argument: rewrite only the
        // original uses.
        SmallVector<OpOperand *> uses;
        for (OpOperand &use : arg.getUses())
          if (!llvm::any_of(fieldValue, [&](auto &kv) {
                return kv.second.getDefiningOp() == use.getOwner();
              }))
            uses.push_back(&use);
        for (OpOperand *use : uses) {
          auto generic = cast<linalg::GenericOp>(use->getOwner());
          unsigned idx = use->getOperandNumber();
          SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
          int64_t field =
              cast<AffineConstantExpr>(maps[idx].getResults().back())
                  .getValue();
          maps[idx] = maps[idx].dropResult(maps[idx].getNumResults() - 1);
          use->set(fieldValue.at(field));
          generic.setIndexingMapsAttr(b.getAffineMapArrayAttr(maps));
        }
        ++numConverted;
        continue;
      }
      // New arguments right after the record argument, one per field.
      unsigned pos = cand.index + 1;
      for (int64_t f : cand.fields) {
        NamedAttrList attrs;
        attrs.set("memopt.aos_field",
                  DictionaryAttr::get(
                      ctx, {b.getNamedAttr("source",
                                           b.getI64IntegerAttr(cand.index)),
                            b.getNamedAttr("record",
                                           b.getI64IntegerAttr(cand.record)),
                            b.getNamedAttr("field", b.getI64IntegerAttr(f))}));
        if (failed(func.insertArgument(pos, fieldType,
                                       attrs.getDictionary(ctx), loc)))
          return failure();
        fieldValue[f] = func.getArgument(pos);
        ++pos;
      }
      rewriteUses(arg, fieldValue);
      if (failed(func.eraseArgument(cand.index)))
        return failure();
      ++numConverted;
    }
    return success();
  }
};
} // namespace
