;
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
; ------------------------------ ---------- ------- ----------- ------- -------------- ------
;
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

define void @main() {
  %1 = call float @dx.op.loadPatchConstant.f32(i32 104, i32 0, i32 1, i8 0)  ; LoadPatchConstant(inputSigId,row,col)
  %2 = call float @dx.op.loadPatchConstant.f32(i32 104, i32 1, i32 0, i8 0)  ; LoadPatchConstant(inputSigId,row,col)
  %3 = call float @dx.op.loadPatchConstant.f32(i32 104, i32 2, i32 0, i8 0)  ; LoadPatchConstant(inputSigId,row,col)
  %4 = call float @dx.op.loadPatchConstant.f32(i32 104, i32 2, i32 0, i8 1)  ; LoadPatchConstant(inputSigId,row,col)
  %5 = call float @dx.op.loadPatchConstant.f32(i32 104, i32 2, i32 0, i8 2)  ; LoadPatchConstant(inputSigId,row,col)
  %6 = call float @dx.op.domainLocation.f32(i32 105, i8 0)  ; DomainLocation(component)
  %7 = call float @dx.op.domainLocation.f32(i32 105, i8 1)  ; DomainLocation(component)
  %8 = call i32 @dx.op.primitiveID.i32(i32 108)  ; PrimitiveID()
  %9 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 0)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %10 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 0)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %11 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 0)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %12 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 1)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %13 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 1)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %14 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 1)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %15 = fsub fast float %12, %9
  %16 = fmul fast float %6, %15
  %17 = fadd fast float %9, %16
  %18 = fsub fast float %13, %10
  %19 = fmul fast float %6, %18
  %20 = fadd fast float %10, %19
  %21 = fsub fast float %14, %11
  %22 = fmul fast float %6, %21
  %23 = fadd fast float %11, %22
  %24 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 3)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %25 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 3)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %26 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 3)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %27 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %28 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %29 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 2, i32 2)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %30 = fsub fast float %27, %24
  %31 = fmul fast float %6, %30
  %32 = fadd fast float %24, %31
  %33 = fsub fast float %28, %25
  %34 = fmul fast float %6, %33
  %35 = fadd fast float %25, %34
  %36 = fsub fast float %29, %26
  %37 = fmul fast float %6, %36
  %38 = fadd fast float %26, %37
  %39 = fsub fast float %32, %17
  %40 = fmul fast float %7, %39
  %41 = fadd fast float %17, %40
  %42 = fsub fast float %35, %20
  %43 = fmul fast float %7, %42
  %44 = fadd fast float %20, %43
  %45 = fsub fast float %38, %23
  %46 = fmul fast float %7, %45
  %47 = fadd fast float %23, %46
  %48 = fmul fast float %3, %1
  %49 = fmul fast float %4, %1
  %50 = fmul fast float %5, %1
  %51 = fadd fast float %41, %48
  %52 = fadd fast float %44, %49
  %53 = fadd fast float %47, %50
  %54 = and i32 %8, 3
  %55 = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 0, i32 %54)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %56 = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 1, i32 %54)  ; LoadInput(inputSigId,rowIndex,colIndex,gsVertexAxis)
  %57 = fmul fast float %55, %2
  %58 = fmul fast float %56, %2
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %51)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %52)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 2, float %53)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 3, float 1.000000e+00)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 0, float %57)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  call void @dx.op.storeOutput.f32(i32 5, i32 1, i32 0, i8 1, float %58)  ; StoreOutput(outputSigId,rowIndex,colIndex,value)
  ret void
}

; Function Attrs: nounwind readnone
declare float @dx.op.loadPatchConstant.f32(i32, i32, i32, i8) #0

; Function Attrs: nounwind readnone
declare float @dx.op.domainLocation.f32(i32, i8) #0

; Function Attrs: nounwind readnone
declare i32 @dx.op.primitiveID.i32(i32) #0

; Function Attrs: nounwind readnone
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

; Function Attrs: nounwind
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.valver = !{!1}
!dx.shaderModel = !{!2}
!dx.entryPoints = !{!3}

!0 = !{i32 1, i32 0}
!1 = !{i32 1, i32 8}
!2 = !{!"ds", i32 6, i32 0}
!3 = !{void ()* @main, !"main", !4, null, !18}
!4 = !{!5, !9, !12}
!5 = !{!6, !8}
!6 = !{i32 0, !"POSITION", i8 9, i8 0, !7, i8 0, i32 1, i8 3, i32 0, i8 0, null}
!7 = !{i32 0}
!8 = !{i32 1, !"TEXCOORD", i8 9, i8 0, !7, i8 0, i32 1, i8 2, i32 1, i8 0, null}
!9 = !{!10, !11}
!10 = !{i32 0, !"SV_Position", i8 9, i8 3, !7, i8 4, i32 1, i8 4, i32 0, i8 0, null}
!11 = !{i32 1, !"TEXCOORD", i8 9, i8 0, !7, i8 2, i32 1, i8 2, i32 1, i8 0, null}
!12 = !{!13, !15, !17}
!13 = !{i32 0, !"SV_TessFactor", i8 9, i8 25, !14, i8 0, i32 4, i8 1, i32 0, i8 3, null}
!14 = !{i32 0, i32 1, i32 2, i32 3}
!15 = !{i32 1, !"SV_InsideTessFactor", i8 9, i8 26, !16, i8 0, i32 2, i8 1, i32 4, i8 3, null}
!16 = !{i32 0, i32 1}
!17 = !{i32 2, !"NORMAL", i8 9, i8 0, !7, i8 0, i32 1, i8 3, i32 0, i8 0, null}
!18 = !{i32 2, !19}
!19 = !{i32 3, i32 4}
