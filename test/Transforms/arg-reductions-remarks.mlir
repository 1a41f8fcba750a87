// RUN: memopt-opt %s --memopt-arg-reductions 2>&1 >/dev/null | FileCheck %s

// Two-output reductions that look like arg reductions but are not in a
// form whose decomposition is exact stay one op, and say why.

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>

// CHECK: remark: arg reduction kept as one op (a naive kernel): its compare is not a strict order (ogt, olt; ugt, ult under an ordered accumulator)
// `oge`: the last index of the maximum.
func.func @last_index(%x: tensor<4x9xf32>) -> tensor<4xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %ge = arith.cmpf oge, %in, %acc : f32
    %v = arith.select %ge, %in, %acc : f32
    %sel = arith.select %ge, %jj, %idx : i64
    linalg.yield %v, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// CHECK: remark: arg reduction kept as one op (a naive kernel): its initial value or index is not a constant fill
// The running value seeded from an input.
func.func @seeded(%x: tensor<4x9xf32>, %s: tensor<4xf32>) -> tensor<4xi64> {
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%s, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// CHECK: remark: arg reduction kept as one op (a naive kernel): its values are not f16, bf16, f32 or integers of 8 to 32 bits
func.func @f64(%x: tensor<4x9xf64>) -> tensor<4xi64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4xf64>
  %fv = linalg.fill ins(%ninf : f64) outs(%ev : tensor<4xf64>) -> tensor<4xf64>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf64>) outs(%fv, %fi : tensor<4xf64>, tensor<4xi64>) {
  ^bb0(%in: f64, %acc: f64, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : f64
    %gt = arith.cmpf ogt, %in, %acc : f64
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f64, i64
  } -> (tensor<4xf64>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// CHECK: remark: arg reduction kept as one op (a naive kernel): its value is not updated by a select on the index's compare or by the max/min of that order
// The index also moves when the running value is exceeded by half.
func.func @other_use(%x: tensor<4x9xf32>) -> tensor<4xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %h = arith.constant 0.5 : f32
  %ev = tensor.empty() : tensor<4xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %m = arith.maximumf %in, %acc : f32
    %half = arith.mulf %acc, %h : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %gh = arith.cmpf ogt, %in, %half : f32
    %c = arith.andi %gt, %gh : i1
    %sel = arith.select %gt, %jj, %idx : i64
    %y = arith.select %c, %m, %acc : f32
    linalg.yield %y, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// CHECK: remark: arg reduction kept as one op (a naive kernel): its unordered compare is not guarded by an ordered accumulator
// `ugt` alone: a NaN element always wins and every later one too.
func.func @unguarded(%x: tensor<4x9xf32>) -> tensor<4xi64> {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4xf32>
  %fv = linalg.fill ins(%ninf : f32) outs(%ev : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf32>) outs(%fv, %fi : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ugt, %in, %acc : f32
    %v = arith.select %gt, %in, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %v, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#1 : tensor<4xi64>
}

// CHECK: remark: arg reduction kept as one op (a naive kernel): its first NaN wins the index but not the value (maxnum/minnum)
// tosa's guard with a maxnum value: after a NaN the value stays ordered, so
// the index moves again.
func.func @guard_maxnum(%x: tensor<4x9xf32>) -> tensor<4xi32> {
  %0 = tensor.empty() : tensor<4xi32>
  %c0_i32 = arith.constant 0 : i32
  %1 = linalg.fill ins(%c0_i32 : i32) outs(%0 : tensor<4xi32>) -> tensor<4xi32>
  %2 = tensor.empty() : tensor<4xf32>
  %cst = arith.constant -3.40282347E+38 : f32
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
  %4:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x9xf32>) outs(%1, %3 : tensor<4xi32>, tensor<4xf32>) {
  ^bb0(%in: f32, %out: i32, %out_0: f32):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i32
    %7 = arith.cmpf ugt, %in, %out_0 : f32
    %8 = arith.cmpf ord, %out_0, %out_0 : f32
    %9 = arith.andi %7, %8 : i1
    %10 = arith.maxnumf %in, %out_0 : f32
    %11 = arith.select %9, %6, %out : i32
    linalg.yield %11, %10 : i32, f32
  } -> (tensor<4xi32>, tensor<4xf32>)
  return %4#0 : tensor<4xi32>
}
