// StableHLO-to-linalg style log_softmax over bf16 with named ops: reduce, broadcast, map
func.func @log_softmax(%x: tensor<64x3000xbf16>) -> tensor<64x3000xbf16> {
  %ninf = arith.constant 0xFF80 : bf16
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xbf16>
  %f = linalg.fill ins(%ninf : bf16) outs(%e : tensor<64xbf16>) -> tensor<64xbf16>
  %mx = linalg.reduce ins(%x : tensor<64x3000xbf16>) outs(%f : tensor<64xbf16>) dimensions = [1]
    (%a: bf16, %b: bf16) {
      %m = arith.maximumf %a, %b : bf16
      linalg.yield %m : bf16
    }
  %eb = tensor.empty() : tensor<64x3000xbf16>
  %mb = linalg.broadcast ins(%mx : tensor<64xbf16>) outs(%eb : tensor<64x3000xbf16>) dimensions = [1]
  %sh = linalg.sub ins(%x, %mb : tensor<64x3000xbf16>, tensor<64x3000xbf16>) outs(%eb : tensor<64x3000xbf16>) -> tensor<64x3000xbf16>
  %ef = tensor.empty() : tensor<64x3000xf32>
  %shf = linalg.map ins(%sh : tensor<64x3000xbf16>) outs(%ef : tensor<64x3000xf32>)
    (%a: bf16, %outv: f32) {
      %w = arith.extf %a : bf16 to f32
      %x2 = math.exp %w : f32
      linalg.yield %x2 : f32
    }
  %e2 = tensor.empty() : tensor<64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.reduce ins(%shf : tensor<64x3000xf32>) outs(%f2 : tensor<64xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %m = arith.addf %a, %b : f32
      linalg.yield %m : f32
    }
  %l = linalg.map ins(%s : tensor<64xf32>) outs(%e2 : tensor<64xf32>)
    (%a: f32, %outv: f32) {
      %lg = math.log %a : f32
      linalg.yield %lg : f32
    }
  %lb = linalg.broadcast ins(%l : tensor<64xf32>) outs(%ef : tensor<64x3000xf32>) dimensions = [1]
  %out = linalg.map ins(%sh, %lb : tensor<64x3000xbf16>, tensor<64x3000xf32>) outs(%eb : tensor<64x3000xbf16>)
    (%a: bf16, %b: f32, %outv: bf16) {
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %b : f32
      %t = arith.truncf %d : f32 to bf16
      linalg.yield %t : bf16
    }
  return %out : tensor<64x3000xbf16>
}
