// Found by utils/fuzz (seed 50 after the row_col_reduction op was added): a column
// reduction of a broadcast along its reduced dim; recomputing the broadcast in the
// reduction left no operand spanning the reduced loop (invalid linalg.generic).
// memopt fuzz program, seed 50, dtype f32, ops: generic_pointwise norm reduction norm reduction
func.func @fuzz_50(%arg0: tensor<3x128xf32>, %arg1: tensor<128xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>) -> (tensor<3xf32>, tensor<128xf32>, tensor<128xf32>, tensor<3x128xf32>, tensor<3x128xf32>, tensor<3x128xf32>) {
  %e1 = tensor.empty() : tensor<3x128xbf16>
  %v2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%arg0 : tensor<3x128xf32>)
      outs(%e1 : tensor<3x128xbf16>) {
  ^bb0(%in0: f32, %out: bf16):
    %b1 = arith.constant 7.97884561e-01 : f32
    %b2 = arith.subf %b1, %in0 : f32
    %b3 = arith.negf %in0 : f32
    %b4 = math.exp %b3 : f32
    %b5 = arith.constant 1.00000000e+00 : f32
    %b6 = arith.addf %b4, %b5 : f32
    %b7 = arith.divf %b5, %b6 : f32
    %b8 = arith.maxnumf %b2, %b7 : f32
    %b9 = arith.truncf %b8 : f32 to bf16
    linalg.yield %b9 : bf16
  } -> tensor<3x128xbf16>
  %e3 = tensor.empty() : tensor<3x128xf32>
  %v4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v2 : tensor<3x128xbf16>)
      outs(%e3 : tensor<3x128xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %b1 = arith.extf %a : bf16 to f32
    linalg.yield %b1 : f32
  } -> tensor<3x128xf32>
  %c5 = arith.constant 0.00000000e+00 : f32
  %e6 = tensor.empty() : tensor<3xf32>
  %f7 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<3xf32>) -> tensor<3xf32>
  %v9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v4 : tensor<3x128xf32>)
      outs(%f7 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %b1 = arith.constant 7.81250000e-03 : f32
    %b2 = arith.mulf %in, %b1 : f32
    %b3 = arith.addf %acc, %b2 : f32
    linalg.yield %b3 : f32
  } -> tensor<3xf32>
  %v10 = linalg.broadcast ins(%v9 : tensor<3xf32>) outs(%e3 : tensor<3x128xf32>) dimensions = [1]
  %v11 = linalg.sub ins(%v4, %v10 : tensor<3x128xf32>, tensor<3x128xf32>) outs(%e3 : tensor<3x128xf32>) -> tensor<3x128xf32>
  %f12 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<3xf32>) -> tensor<3xf32>
  %v14 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v11 : tensor<3x128xf32>)
      outs(%f12 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %b1 = arith.mulf %in, %in : f32
    %b2 = arith.addf %acc, %b1 : f32
    linalg.yield %b2 : f32
  } -> tensor<3xf32>
  %v15 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v14 : tensor<3xf32>)
      outs(%e6 : tensor<3xf32>) {
  ^bb0(%s: f32, %o: f32):
    %b1 = arith.constant 1.28000000e+02 : f32
    %b2 = arith.divf %s, %b1 : f32
    linalg.yield %b2 : f32
  } -> tensor<3xf32>
  %v16 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v11, %v15 : tensor<3x128xf32>, tensor<3xf32>)
      outs(%e3 : tensor<3x128xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %b1 = arith.constant 1.00000000e-02 : f32
    %b2 = arith.addf %s, %b1 : f32
    %b3 = math.rsqrt %b2 : f32
    %b4 = arith.mulf %x, %b3 : f32
    linalg.yield %b4 : f32
  } -> tensor<3x128xf32>
  %v17 = linalg.broadcast ins(%arg1 : tensor<128xf32>) outs(%e3 : tensor<3x128xf32>) dimensions = [0]
  %v18 = linalg.mul ins(%v16, %v17 : tensor<3x128xf32>, tensor<3x128xf32>) outs(%e3 : tensor<3x128xf32>) -> tensor<3x128xf32>
  %f19 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<3xf32>) -> tensor<3xf32>
  %v21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v18 : tensor<3x128xf32>)
      outs(%f19 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %b1 = arith.addf %in, %acc : f32
    linalg.yield %b1 : f32
  } -> tensor<3xf32>
  %v22 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%v21 : tensor<3xf32>)
      outs(%e6 : tensor<3xf32>) {
  ^bb0(%s: f32, %o: f32):
    %b1 = arith.constant 1.28000000e+02 : f32
    %b2 = arith.divf %s, %b1 : f32
    linalg.yield %b2 : f32
  } -> tensor<3xf32>
  %e23 = tensor.empty() : tensor<128xf32>
  %f24 = linalg.fill ins(%c5 : f32) outs(%e23 : tensor<128xf32>) -> tensor<128xf32>
  %v25 = linalg.reduce ins(%v17 : tensor<3x128xf32>) outs(%f24 : tensor<128xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %b1 = arith.addf %in, %acc : f32
      linalg.yield %b1 : f32
    }
  %c26 = arith.constant 3.33333333e-01 : f32
  %f27 = linalg.fill ins(%c26 : f32) outs(%e23 : tensor<128xf32>) -> tensor<128xf32>
  %v28 = linalg.mul ins(%v25, %f27 : tensor<128xf32>, tensor<128xf32>) outs(%e23 : tensor<128xf32>) -> tensor<128xf32>
  %v29 = linalg.broadcast ins(%v28 : tensor<128xf32>) outs(%e3 : tensor<3x128xf32>) dimensions = [0]
  %v30 = linalg.sub ins(%v17, %v29 : tensor<3x128xf32>, tensor<3x128xf32>) outs(%e3 : tensor<3x128xf32>) -> tensor<3x128xf32>
  %f31 = linalg.fill ins(%c5 : f32) outs(%e23 : tensor<128xf32>) -> tensor<128xf32>
  %v33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%v30 : tensor<3x128xf32>)
      outs(%f31 : tensor<128xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %b1 = arith.mulf %in, %in : f32
    %b2 = arith.constant 3.33333333e-01 : f32
    %b3 = arith.mulf %b1, %b2 : f32
    %b4 = arith.addf %acc, %b3 : f32
    linalg.yield %b4 : f32
  } -> tensor<128xf32>
  %v34 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v30, %v33 : tensor<3x128xf32>, tensor<128xf32>)
      outs(%e3 : tensor<3x128xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %b1 = arith.constant 1.00000000e-03 : f32
    %b2 = arith.addf %s, %b1 : f32
    %b3 = math.rsqrt %b2 : f32
    %b4 = arith.mulf %x, %b3 : f32
    linalg.yield %b4 : f32
  } -> tensor<3x128xf32>
  %v35 = linalg.broadcast ins(%arg2 : tensor<3xf32>) outs(%e3 : tensor<3x128xf32>) dimensions = [1]
  %v36 = linalg.mul ins(%v34, %v35 : tensor<3x128xf32>, tensor<3x128xf32>) outs(%e3 : tensor<3x128xf32>) -> tensor<3x128xf32>
  %v37 = linalg.broadcast ins(%arg3 : tensor<3xf32>) outs(%e3 : tensor<3x128xf32>) dimensions = [1]
  %v38 = linalg.add ins(%v36, %v37 : tensor<3x128xf32>, tensor<3x128xf32>) outs(%e3 : tensor<3x128xf32>) -> tensor<3x128xf32>
  %f39 = linalg.fill ins(%c5 : f32) outs(%e6 : tensor<3xf32>) -> tensor<3xf32>
  %v41 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%v38 : tensor<3x128xf32>)
      outs(%f39 : tensor<3xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %b1 = arith.constant 7.81250000e-03 : f32
    %b2 = arith.mulf %in, %b1 : f32
    %b3 = arith.addf %b2, %acc : f32
    linalg.yield %b3 : f32
  } -> tensor<3xf32>
  return %v41, %v28, %v25, %v30, %v10, %v11 : tensor<3xf32>, tensor<128xf32>, tensor<128xf32>, tensor<3x128xf32>, tensor<3x128xf32>, tensor<3x128xf32>
}
