; ModuleID = 'axpy.tk'
source_filename = "axpy.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @axpy__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %5, align 8
  %6 = load float, ptr %a, align 4
  %7 = getelementptr i64, ptr %1, i64 0
  %8 = load i64, ptr %7, align 8
  %N = trunc i64 %8 to i32
  %9 = sdiv i32 %N, 64
  %10 = srem i32 %N, 64
  %11 = icmp sgt i32 %N, 0
  %12 = icmp ne i32 %10, 0
  %13 = and i1 %12, %11
  %14 = zext i1 %13 to i32
  %15 = add i32 %9, %14
  %16 = select i1 true, i32 %15, i32 0
  %17 = sext i32 %16 to i64
  %18 = getelementptr i64, ptr %2, i64 0
  store i64 %17, ptr %18, align 8
  %19 = getelementptr i64, ptr %2, i64 1
  store i64 1, ptr %19, align 8
  %20 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %20, align 8
  %21 = getelementptr i64, ptr %2, i64 3
  store i64 263104, ptr %21, align 8
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %x = alloca [64 x float], align 64
  %y = alloca [64 x float], align 64
  %tile = alloca [64 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %X = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %Y = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %a = load ptr, ptr %7, align 8
  %8 = load float, ptr %a, align 4
  %9 = getelementptr i64, ptr %1, i64 0
  %10 = load i64, ptr %9, align 8
  %N = trunc i64 %10 to i32
  %11 = getelementptr i64, ptr %1, i64 0
  %12 = load i64, ptr %11, align 8
  %13 = mul i64 1, %12
  %14 = add i64 0, %13
  %15 = sext i32 %2 to i64
  %16 = icmp slt i64 %15, 1099511627776
  %17 = select i1 %16, i64 %15, i64 1099511627776
  %18 = icmp sgt i64 %17, -1099511627776
  %19 = select i1 %18, i64 %17, i64 -1099511627776
  %20 = mul i64 %19, 64
  %21 = icmp sge i64 %20, 0
  %22 = and i1 true, %21
  %23 = add i64 %20, 64
  %24 = and i1 %22, true
  %25 = icmp sle i64 %23, %14
  %26 = and i1 %24, %25
  br i1 %26, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %start
  br label %in.row

gl.edge:                                          ; preds = %start
  call void @llvm.memset.p0.i64(ptr align 64 %x, i8 0, i64 256, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done2, %done
  %27 = getelementptr i64, ptr %1, i64 0
  %28 = load i64, ptr %27, align 8
  %29 = mul i64 1, %28
  %30 = add i64 0, %29
  %31 = sext i32 %2 to i64
  %32 = icmp slt i64 %31, 1099511627776
  %33 = select i1 %32, i64 %31, i64 1099511627776
  %34 = icmp sgt i64 %33, -1099511627776
  %35 = select i1 %34, i64 %33, i64 -1099511627776
  %36 = mul i64 %35, 64
  %37 = icmp sge i64 %36, 0
  %38 = and i1 true, %37
  %39 = add i64 %36, 64
  %40 = and i1 %38, true
  %41 = icmp sle i64 %39, %30
  %42 = and i1 %40, %41
  br i1 %42, label %gl.inside7, label %gl.edge8

in.row:                                           ; preds = %body, %gl.inside
  %i = phi i64 [ 0, %gl.inside ], [ %55, %body ]
  %43 = icmp slt i64 %i, 1
  br i1 %43, label %body, label %done

body:                                             ; preds = %in.row
  %44 = add i64 0, %i
  %45 = mul i64 %44, %14
  %46 = add i64 %45, %20
  %47 = add i64 %46, 0
  %48 = getelementptr float, ptr %X, i64 %47
  %49 = getelementptr float, ptr %x, i64 0
  %50 = load <32 x float>, ptr %48, align 4
  store <32 x float> %50, ptr %49, align 4
  %51 = add i64 %46, 32
  %52 = getelementptr float, ptr %X, i64 %51
  %53 = getelementptr float, ptr %x, i64 32
  %54 = load <32 x float>, ptr %52, align 4
  store <32 x float> %54, ptr %53, align 4
  %55 = add i64 %i, 1
  br label %in.row

done:                                             ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done5, %gl.edge
  %i3 = phi i64 [ 0, %gl.edge ], [ %80, %done5 ]
  %56 = icmp slt i64 %i3, 1
  br i1 %56, label %body1, label %done2

body1:                                            ; preds = %gl.row
  %57 = add i64 0, %i3
  %58 = icmp slt i64 %57, 1
  %59 = icmp sge i64 %57, 0
  %60 = and i1 %59, %58
  %61 = and i1 true, %60
  %62 = add i64 0, %57
  %63 = mul i64 %62, %14
  %64 = sub i64 0, %20
  %65 = icmp sgt i64 %64, 0
  %66 = select i1 %65, i64 %64, i64 0
  %67 = sub i64 %14, %20
  %68 = icmp slt i64 %67, 64
  %69 = select i1 %68, i64 %67, i64 64
  %70 = select i1 %61, i64 %69, i64 0
  %71 = sub i64 %70, %66
  br label %gl.col

done2:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %79, %body4 ]
  %72 = icmp slt i64 %i6, %71
  br i1 %72, label %body4, label %done5

body4:                                            ; preds = %gl.col
  %73 = add i64 %i6, %66
  %74 = add i64 %20, %73
  %75 = add i64 %63, %74
  %76 = getelementptr float, ptr %X, i64 %75
  %77 = load float, ptr %76, align 4
  %78 = getelementptr float, ptr %x, i64 %73
  store float %77, ptr %78, align 4
  %79 = add i64 %i6, 1
  br label %gl.col

done5:                                            ; preds = %gl.col
  %80 = add i64 %i3, 1
  br label %gl.row

gl.inside7:                                       ; preds = %gl.done
  br label %in.row10

gl.edge8:                                         ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %y, i8 0, i64 256, i1 false)
  br label %gl.row14

gl.done9:                                         ; preds = %done16, %done12
  br label %row

in.row10:                                         ; preds = %body11, %gl.inside7
  %i13 = phi i64 [ 0, %gl.inside7 ], [ %93, %body11 ]
  %81 = icmp slt i64 %i13, 1
  br i1 %81, label %body11, label %done12

body11:                                           ; preds = %in.row10
  %82 = add i64 0, %i13
  %83 = mul i64 %82, %30
  %84 = add i64 %83, %36
  %85 = add i64 %84, 0
  %86 = getelementptr float, ptr %Y, i64 %85
  %87 = getelementptr float, ptr %y, i64 0
  %88 = load <32 x float>, ptr %86, align 4
  store <32 x float> %88, ptr %87, align 4
  %89 = add i64 %84, 32
  %90 = getelementptr float, ptr %Y, i64 %89
  %91 = getelementptr float, ptr %y, i64 32
  %92 = load <32 x float>, ptr %90, align 4
  store <32 x float> %92, ptr %91, align 4
  %93 = add i64 %i13, 1
  br label %in.row10

done12:                                           ; preds = %in.row10
  br label %gl.done9

gl.row14:                                         ; preds = %done20, %gl.edge8
  %i17 = phi i64 [ 0, %gl.edge8 ], [ %118, %done20 ]
  %94 = icmp slt i64 %i17, 1
  br i1 %94, label %body15, label %done16

body15:                                           ; preds = %gl.row14
  %95 = add i64 0, %i17
  %96 = icmp slt i64 %95, 1
  %97 = icmp sge i64 %95, 0
  %98 = and i1 %97, %96
  %99 = and i1 true, %98
  %100 = add i64 0, %95
  %101 = mul i64 %100, %30
  %102 = sub i64 0, %36
  %103 = icmp sgt i64 %102, 0
  %104 = select i1 %103, i64 %102, i64 0
  %105 = sub i64 %30, %36
  %106 = icmp slt i64 %105, 64
  %107 = select i1 %106, i64 %105, i64 64
  %108 = select i1 %99, i64 %107, i64 0
  %109 = sub i64 %108, %104
  br label %gl.col18

done16:                                           ; preds = %gl.row14
  br label %gl.done9

gl.col18:                                         ; preds = %body19, %body15
  %i21 = phi i64 [ 0, %body15 ], [ %117, %body19 ]
  %110 = icmp slt i64 %i21, %109
  br i1 %110, label %body19, label %done20

body19:                                           ; preds = %gl.col18
  %111 = add i64 %i21, %104
  %112 = add i64 %36, %111
  %113 = add i64 %101, %112
  %114 = getelementptr float, ptr %Y, i64 %113
  %115 = load float, ptr %114, align 4
  %116 = getelementptr float, ptr %y, i64 %111
  store float %115, ptr %116, align 4
  %117 = add i64 %i21, 1
  br label %gl.col18

done20:                                           ; preds = %gl.col18
  %118 = add i64 %i17, 1
  br label %gl.row14

row:                                              ; preds = %done26, %gl.done9
  %i24 = phi i64 [ 0, %gl.done9 ], [ %145, %done26 ]
  %119 = icmp slt i64 %i24, 1
  br i1 %119, label %body22, label %done23

body22:                                           ; preds = %row
  br label %col

done23:                                           ; preds = %row
  %120 = getelementptr i64, ptr %1, i64 0
  %121 = load i64, ptr %120, align 8
  %122 = mul i64 1, %121
  %123 = add i64 0, %122
  %124 = sext i32 %2 to i64
  %125 = icmp slt i64 %124, 1099511627776
  %126 = select i1 %125, i64 %124, i64 1099511627776
  %127 = icmp sgt i64 %126, -1099511627776
  %128 = select i1 %127, i64 %126, i64 -1099511627776
  %129 = mul i64 %128, 64
  %130 = icmp sge i64 %129, 0
  %131 = and i1 true, %130
  %132 = add i64 %129, 64
  %133 = and i1 %131, true
  %134 = icmp sle i64 %132, %123
  %135 = and i1 %133, %134
  br i1 %135, label %gl.inside28, label %gl.edge29

col:                                              ; preds = %body25, %body22
  %i27 = phi i64 [ 0, %body22 ], [ %144, %body25 ]
  %136 = icmp slt i64 %i27, 64
  br i1 %136, label %body25, label %done26

body25:                                           ; preds = %col
  %137 = getelementptr float, ptr %y, i64 %i27
  %138 = load float, ptr %137, align 4
  %139 = getelementptr float, ptr %x, i64 %i27
  %140 = load float, ptr %139, align 4
  %141 = fmul float %140, %8
  %142 = fadd float %141, %138
  %143 = getelementptr float, ptr %tile, i64 %i27
  store float %142, ptr %143, align 4
  %144 = add i64 %i27, 1
  br label %col

done26:                                           ; preds = %col
  %145 = add i64 %i24, 1
  br label %row

gl.inside28:                                      ; preds = %done23
  br label %in.row31

gl.edge29:                                        ; preds = %done23
  br label %gl.row35

gl.done30:                                        ; preds = %done37, %done33
  ret void

in.row31:                                         ; preds = %body32, %gl.inside28
  %i34 = phi i64 [ 0, %gl.inside28 ], [ %158, %body32 ]
  %146 = icmp slt i64 %i34, 1
  br i1 %146, label %body32, label %done33

body32:                                           ; preds = %in.row31
  %147 = add i64 0, %i34
  %148 = mul i64 %147, %123
  %149 = add i64 %148, %129
  %150 = add i64 %149, 0
  %151 = getelementptr float, ptr %tile, i64 0
  %152 = getelementptr float, ptr %Y, i64 %150
  %153 = load <32 x float>, ptr %151, align 4
  store <32 x float> %153, ptr %152, align 4
  %154 = add i64 %149, 32
  %155 = getelementptr float, ptr %tile, i64 32
  %156 = getelementptr float, ptr %Y, i64 %154
  %157 = load <32 x float>, ptr %155, align 4
  store <32 x float> %157, ptr %156, align 4
  %158 = add i64 %i34, 1
  br label %in.row31

done33:                                           ; preds = %in.row31
  br label %gl.done30

gl.row35:                                         ; preds = %done41, %gl.edge29
  %i38 = phi i64 [ 0, %gl.edge29 ], [ %183, %done41 ]
  %159 = icmp slt i64 %i38, 1
  br i1 %159, label %body36, label %done37

body36:                                           ; preds = %gl.row35
  %160 = add i64 0, %i38
  %161 = icmp slt i64 %160, 1
  %162 = icmp sge i64 %160, 0
  %163 = and i1 %162, %161
  %164 = and i1 true, %163
  %165 = add i64 0, %160
  %166 = mul i64 %165, %123
  %167 = sub i64 0, %129
  %168 = icmp sgt i64 %167, 0
  %169 = select i1 %168, i64 %167, i64 0
  %170 = sub i64 %123, %129
  %171 = icmp slt i64 %170, 64
  %172 = select i1 %171, i64 %170, i64 64
  %173 = select i1 %164, i64 %172, i64 0
  %174 = sub i64 %173, %169
  br label %gl.col39

done37:                                           ; preds = %gl.row35
  br label %gl.done30

gl.col39:                                         ; preds = %body40, %body36
  %i42 = phi i64 [ 0, %body36 ], [ %182, %body40 ]
  %175 = icmp slt i64 %i42, %174
  br i1 %175, label %body40, label %done41

body40:                                           ; preds = %gl.col39
  %176 = add i64 %i42, %169
  %177 = add i64 %129, %176
  %178 = add i64 %166, %177
  %179 = getelementptr float, ptr %tile, i64 %176
  %180 = load float, ptr %179, align 4
  %181 = getelementptr float, ptr %Y, i64 %178
  store float %180, ptr %181, align 4
  %182 = add i64 %i42, 1
  br label %gl.col39

done41:                                           ; preds = %gl.col39
  %183 = add i64 %i38, 1
  br label %gl.row35
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
