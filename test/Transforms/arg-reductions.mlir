// RUN: memopt-opt %s --memopt-arg-reductions --canonicalize | FileCheck %s

// Arg-max and arg-min reductions (a value and the index that set it, one
// two-result generic) become one-combiner reductions: the extreme (NaN
// ignored), the first index holding it (minsi over i32 candidates), and a
// select of the initial index where nothing beat the initial value.

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>

// torch-mlir's form: the value by maximumf, so a NaN stops the index: the
// first NaN's position is reduced first and the extreme only takes the
// elements before it; the value keeps its own maximumf reduction.
// CHECK-LABEL: func.func @torch_max
// CHECK-DAG:   %[[BIG:.+]] = arith.constant 2147483647 : i32
// CHECK-DAG:   %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:   %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK:       %[[P:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf32>)
// CHECK:         arith.cmpf uno
// CHECK:         arith.minsi
// CHECK:       %[[E:.+]] = linalg.generic {{.*}} ins(%arg0, %[[P]] : tensor<4x9xf32>, tensor<4xi32>)
// CHECK:         %[[J:.+]] = linalg.index 1
// CHECK:         %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK:         %[[BEFORE:.+]] = arith.cmpi slt, %[[JJ]]
// CHECK:         %[[X:.+]] = arith.select %[[BEFORE]], %{{.+}}, %[[NAN]] : f32
// CHECK:         arith.maxnumf %{{.+}}, %[[X]] : f32
// CHECK:       %[[Q:.+]] = linalg.generic {{.*}} ins(%arg0, %[[E]] : tensor<4x9xf32>, tensor<4xf32>)
// CHECK:         arith.cmpf oeq
// CHECK:         arith.minsi
// CHECK:       %[[I:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[Q]] : tensor<4xf32>, tensor<4xi32>)
// CHECK:         %[[FOUND:.+]] = arith.cmpf ogt, %{{.+}}, %[[NINF]] : f32
// CHECK:         %[[W:.+]] = arith.extsi %{{.+}} : i32 to i64
// CHECK:         arith.select %[[FOUND]], %[[W]], %{{.+}} : i64
// CHECK:       %[[V:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf32>)
// CHECK:         arith.maximumf
// CHECK:       return %[[V]], %[[I]]
func.func @torch_max(%x: tensor<4x9xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
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
    %m = arith.maximumf %in, %acc : f32
    %gt = arith.cmpf ogt, %in, %acc : f32
    %sel = arith.select %gt, %jj, %idx : i64
    linalg.yield %m, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// tosa's form (index output first, selects on one ogt, the lowest finite
// seed), the value returned: the element at the found index, picked
// through its bits (an or over zero-extended bit patterns), or the seed
// where nothing beat it. No NaN position: an ordered compare never lets a
// NaN win.
// CHECK-LABEL: func.func @tosa_max
// CHECK-DAG:   %[[LOW:.+]] = arith.constant -6.550400e+04 : f16
// CHECK-NOT:   arith.cmpf uno
// CHECK:       %[[E:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf16>)
// CHECK:         arith.maxnumf
// CHECK:       %[[Q:.+]] = linalg.generic {{.*}} ins(%arg0, %[[E]] : tensor<4x9xf16>, tensor<4xf16>)
// CHECK:         arith.minsi
// CHECK:       %[[I:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[Q]] : tensor<4xf16>, tensor<4xi32>)
// CHECK-NOT:     arith.extsi
// CHECK:       %[[PICK:.+]] = linalg.generic {{.*}} ins(%arg0, %[[Q]] : tensor<4x9xf16>, tensor<4xi32>)
// CHECK:         %[[AT:.+]] = arith.cmpi eq
// CHECK:         %[[B:.+]] = arith.bitcast %{{.+}} : f16 to i16
// CHECK:         %[[W:.+]] = arith.extui %[[B]] : i16 to i32
// CHECK:         %[[T:.+]] = arith.select %[[AT]], %[[W]], %{{.+}} : i32
// CHECK:         arith.ori %{{.+}}, %[[T]] : i32
// CHECK:       %[[X:.+]] = linalg.generic {{.*}} ins(%[[PICK]] : tensor<4xi32>)
// CHECK:         arith.trunci %{{.+}} : i32 to i16
// CHECK:         arith.bitcast %{{.+}} : i16 to f16
// CHECK:       %[[V:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[X]] : tensor<4xf16>, tensor<4xf16>)
// CHECK:         %[[F:.+]] = arith.cmpf ogt, %{{.+}}, %[[LOW]] : f16
// CHECK:         arith.select %[[F]], %{{.+}}, %[[LOW]] : f16
// CHECK:       return %[[I]], %[[V]]
func.func @tosa_max(%x: tensor<4x9xf16>) -> (tensor<4xi32>, tensor<4xf16>) {
  %c0 = arith.constant 0 : i32
  %low = arith.constant -6.550400e+04 : f16
  %ei = tensor.empty() : tensor<4xi32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %ev = tensor.empty() : tensor<4xf16>
  %fv = linalg.fill ins(%low : f16) outs(%ev : tensor<4xf16>) -> tensor<4xf16>
  %r:2 = linalg.generic {indexing_maps = [#in, #out, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x9xf16>) outs(%fi, %fv : tensor<4xi32>, tensor<4xf16>) {
  ^bb0(%in: f16, %idx: i32, %acc: f16):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %gt = arith.cmpf ogt, %in, %acc : f16
    %v = arith.select %gt, %in, %acc : f16
    %i = arith.select %gt, %jj, %idx : i32
    linalg.yield %i, %v : i32, f16
  } -> (tensor<4xi32>, tensor<4xf16>)
  return %r#0, %r#1 : tensor<4xi32>, tensor<4xf16>
}

// Arg-min of i8 with the accumulator compared first (`sgt %acc, %in`):
// the elements widened to i32 (sign-extended for a signed order), the
// extreme by minsi, the value narrowed back; over the reduced loop 0.
// CHECK-LABEL: func.func @int_min
// CHECK:       %[[E:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]{{.*}} ins(%arg0 : tensor<9x4xi8>)
// CHECK:         %[[W:.+]] = arith.extsi %{{.+}} : i8 to i32
// CHECK:         arith.minsi %{{.+}}, %[[W]] : i32
// CHECK:       %[[Q:.+]] = linalg.generic {{.*}} ins(%arg0, %[[E]] : tensor<9x4xi8>, tensor<4xi32>)
// CHECK:         linalg.index 0
// CHECK:         arith.cmpi eq
// CHECK:       %[[I:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[Q]] : tensor<4xi32>, tensor<4xi32>)
// CHECK:         arith.cmpi slt
// CHECK:       %[[V:.+]] = linalg.generic {{.*}} ins(%[[E]] : tensor<4xi32>)
// CHECK:         arith.trunci %{{.+}} : i32 to i8
// CHECK:       return %[[V]], %[[I]]
func.func @int_min(%x: tensor<9x4xi8>) -> (tensor<4xi8>, tensor<4xi64>) {
  %seven = arith.constant 7 : i8
  %c0 = arith.constant 0 : i64
  %ev = tensor.empty() : tensor<4xi8>
  %fv = linalg.fill ins(%seven : i8) outs(%ev : tensor<4xi8>) -> tensor<4xi8>
  %ei = tensor.empty() : tensor<4xi64>
  %fi = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<9x4xi8>) outs(%fv, %fi : tensor<4xi8>, tensor<4xi64>) {
  ^bb0(%in: i8, %acc: i8, %idx: i64):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i64
    %lt = arith.cmpi sgt, %acc, %in : i8
    %v = arith.select %lt, %in, %acc : i8
    %i = arith.select %lt, %jj, %idx : i64
    linalg.yield %v, %i : i8, i64
  } -> (tensor<4xi8>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xi8>, tensor<4xi64>
}

// tosa's NaN propagation (`(x >u acc) && acc is ordered`: the first NaN
// wins and stays): the first NaN's position and the unmasked extreme are
// independent reductions; the index is that position where there is a NaN.
// CHECK-LABEL: func.func @tosa_propagate
// CHECK:       %[[P:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf32>)
// CHECK:         arith.cmpf uno
// CHECK:         arith.minsi
// CHECK:       %[[E:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x9xf32>)
// CHECK-NOT:     arith.cmpi slt
// CHECK:         arith.maxnumf
// CHECK:       %[[Q:.+]] = linalg.generic {{.*}} ins(%arg0, %[[E]] : tensor<4x9xf32>, tensor<4xf32>)
// CHECK:       %[[I:.+]] = linalg.generic {{.*}} ins(%[[E]], %[[Q]], %[[P]] : tensor<4xf32>, tensor<4xi32>, tensor<4xi32>)
// CHECK:         %[[R:.+]] = arith.select
// CHECK:         %[[NAN:.+]] = arith.cmpi ne
// CHECK:         arith.select %[[NAN]], %{{.+}}, %[[R]] : i32
// CHECK:       return %[[I]]
func.func @tosa_propagate(%x: tensor<4x9xf32>) -> tensor<4xi32> {
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
    %10 = arith.select %9, %in, %out_0 : f32
    %11 = arith.select %9, %6, %out : i32
    linalg.yield %11, %10 : i32, f32
  } -> (tensor<4xi32>, tensor<4xf32>)
  return %4#0 : tensor<4xi32>
}
