//===- AosToSoa.cpp - array of records to one array per field -*- C++ -*-===//
//
// Part of the memopt project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file implements memopt-aos-to-soa: record-array arguments read at a
// few constant fields become one argument per used field, with every access
// rewritten together and the mapping recorded for the launch manifest.
//
//===----------------------------------------------------------------------===//

#include "memopt/Analysis/Traffic.h"
#include "memopt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
    for (AffineExpr e : map.getResults().drop_back())
      if (!isa<AffineDimExpr>(e)) {
        why = "a use indexes the records with a non-trivial expression";
        return failure();
      }
    fields.insert(field.getValue());
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

/// Replaces the uses of `arg` by per-field values from `fieldValue`.
static void rewriteUses(BlockArgument arg,
                        const std::map<int64_t, Value> &fieldValue) {
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : arg.getUses())
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

namespace {
struct MemoptAosToSoaPass final
    : memopt::impl::MemoptAosToSoaPassBase<MemoptAosToSoaPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal() && failed(convert(func)))
        return signalPassFailure();
  }

  LogicalResult convert(func::FuncOp func) {
    SmallVector<RecordArg> candidates;
    for (BlockArgument arg : func.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() < 2 || !type.hasStaticShape())
        continue;
      int64_t record = type.getShape().back();
      if (record < 2 || record > maxRecordFields || arg.use_empty())
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
