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
  ret void
}

define void @axpy__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %x = alloca [64 x float], align 64
  %tile = alloca [64 x float], align 64
  %y = alloca [64 x float], align 64
  %tile4 = alloca [64 x float], align 64
  %tile13 = alloca [64 x float], align 64
  %tile17 = alloca [64 x float], align 64
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
  call void @llvm.memset.p0.i64(ptr align 64 %x, i8 0, i64 256, i1 false)
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
  call void @llvm.memset.p0.i64(ptr align 64 %tile, i8 0, i64 256, i1 false)
  br label %gl.row

gl.row:                                           ; preds = %done2, %start
  %i = phi i64 [ 0, %start ], [ %55, %done2 ]
  %21 = icmp slt i64 %i, 1
  br i1 %21, label %body, label %done

body:                                             ; preds = %gl.row
  %22 = add i64 0, %i
  %23 = icmp slt i64 %22, 1
  %24 = icmp sge i64 %22, 0
  %25 = and i1 %24, %23
  %26 = and i1 true, %25
  %27 = add i64 0, %22
  %28 = mul i64 %27, %14
  %29 = sub i64 0, %20
  %30 = icmp sgt i64 %29, 0
  %31 = select i1 %30, i64 %29, i64 0
  %32 = sub i64 %14, %20
  %33 = icmp slt i64 %32, 64
  %34 = select i1 %33, i64 %32, i64 64
  %35 = select i1 %26, i64 %34, i64 0
  %36 = sub i64 %35, %31
  br label %gl.col

done:                                             ; preds = %gl.row
  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %x, ptr align 64 %tile, i64 256, i1 false)
  call void @llvm.memset.p0.i64(ptr align 64 %y, i8 0, i64 256, i1 false)
  %37 = getelementptr i64, ptr %1, i64 0
  %38 = load i64, ptr %37, align 8
  %39 = mul i64 1, %38
  %40 = add i64 0, %39
  %41 = sext i32 %2 to i64
  %42 = icmp slt i64 %41, 1099511627776
  %43 = select i1 %42, i64 %41, i64 1099511627776
  %44 = icmp sgt i64 %43, -1099511627776
  %45 = select i1 %44, i64 %43, i64 -1099511627776
  %46 = mul i64 %45, 64
  call void @llvm.memset.p0.i64(ptr align 64 %tile4, i8 0, i64 256, i1 false)
  br label %gl.row5

gl.col:                                           ; preds = %body1, %body
  %i3 = phi i64 [ 0, %body ], [ %54, %body1 ]
  %47 = icmp slt i64 %i3, %36
  br i1 %47, label %body1, label %done2

body1:                                            ; preds = %gl.col
  %48 = add i64 %i3, %31
  %49 = add i64 %20, %48
  %50 = add i64 %28, %49
  %51 = getelementptr float, ptr %X, i64 %50
  %52 = load float, ptr %51, align 4
  %53 = getelementptr float, ptr %tile, i64 %48
  store float %52, ptr %53, align 4
  %54 = add i64 %i3, 1
  br label %gl.col

done2:                                            ; preds = %gl.col
  %55 = add i64 %i, 1
  br label %gl.row

gl.row5:                                          ; preds = %done11, %done
  %i8 = phi i64 [ 0, %done ], [ %80, %done11 ]
  %56 = icmp slt i64 %i8, 1
  br i1 %56, label %body6, label %done7

body6:                                            ; preds = %gl.row5
  %57 = add i64 0, %i8
  %58 = icmp slt i64 %57, 1
  %59 = icmp sge i64 %57, 0
  %60 = and i1 %59, %58
  %61 = and i1 true, %60
  %62 = add i64 0, %57
  %63 = mul i64 %62, %40
  %64 = sub i64 0, %46
  %65 = icmp sgt i64 %64, 0
  %66 = select i1 %65, i64 %64, i64 0
  %67 = sub i64 %40, %46
  %68 = icmp slt i64 %67, 64
  %69 = select i1 %68, i64 %67, i64 64
  %70 = select i1 %61, i64 %69, i64 0
  %71 = sub i64 %70, %66
  br label %gl.col9

done7:                                            ; preds = %gl.row5
  call void @llvm.memcpy.p0.p0.i64(ptr align 64 %y, ptr align 64 %tile4, i64 256, i1 false)
  br label %map

gl.col9:                                          ; preds = %body10, %body6
  %i12 = phi i64 [ 0, %body6 ], [ %79, %body10 ]
  %72 = icmp slt i64 %i12, %71
  br i1 %72, label %body10, label %done11

body10:                                           ; preds = %gl.col9
  %73 = add i64 %i12, %66
  %74 = add i64 %46, %73
  %75 = add i64 %63, %74
  %76 = getelementptr float, ptr %Y, i64 %75
  %77 = load float, ptr %76, align 4
  %78 = getelementptr float, ptr %tile4, i64 %73
  store float %77, ptr %78, align 4
  %79 = add i64 %i12, 1
  br label %gl.col9

done11:                                           ; preds = %gl.col9
  %80 = add i64 %i8, 1
  br label %gl.row5

map:                                              ; preds = %body14, %done7
  %i16 = phi i64 [ 0, %done7 ], [ %86, %body14 ]
  %81 = icmp slt i64 %i16, 64
  br i1 %81, label %body14, label %done15

body14:                                           ; preds = %map
  %82 = getelementptr float, ptr %x, i64 %i16
  %83 = load float, ptr %82, align 4
  %84 = fmul float %83, %8
  %85 = getelementptr float, ptr %tile13, i64 %i16
  store float %84, ptr %85, align 4
  %86 = add i64 %i16, 1
  br label %map

done15:                                           ; preds = %map
  br label %map18

map18:                                            ; preds = %body19, %done15
  %i21 = phi i64 [ 0, %done15 ], [ %94, %body19 ]
  %87 = icmp slt i64 %i21, 64
  br i1 %87, label %body19, label %done20

body19:                                           ; preds = %map18
  %88 = getelementptr float, ptr %tile13, i64 %i21
  %89 = load float, ptr %88, align 4
  %90 = getelementptr float, ptr %y, i64 %i21
  %91 = load float, ptr %90, align 4
  %92 = fadd float %89, %91
  %93 = getelementptr float, ptr %tile17, i64 %i21
  store float %92, ptr %93, align 4
  %94 = add i64 %i21, 1
  br label %map18

done20:                                           ; preds = %map18
  %95 = getelementptr i64, ptr %1, i64 0
  %96 = load i64, ptr %95, align 8
  %97 = mul i64 1, %96
  %98 = add i64 0, %97
  %99 = sext i32 %2 to i64
  %100 = icmp slt i64 %99, 1099511627776
  %101 = select i1 %100, i64 %99, i64 1099511627776
  %102 = icmp sgt i64 %101, -1099511627776
  %103 = select i1 %102, i64 %101, i64 -1099511627776
  %104 = mul i64 %103, 64
  br label %gl.row22

gl.row22:                                         ; preds = %done28, %done20
  %i25 = phi i64 [ 0, %done20 ], [ %129, %done28 ]
  %105 = icmp slt i64 %i25, 1
  br i1 %105, label %body23, label %done24

body23:                                           ; preds = %gl.row22
  %106 = add i64 0, %i25
  %107 = icmp slt i64 %106, 1
  %108 = icmp sge i64 %106, 0
  %109 = and i1 %108, %107
  %110 = and i1 true, %109
  %111 = add i64 0, %106
  %112 = mul i64 %111, %98
  %113 = sub i64 0, %104
  %114 = icmp sgt i64 %113, 0
  %115 = select i1 %114, i64 %113, i64 0
  %116 = sub i64 %98, %104
  %117 = icmp slt i64 %116, 64
  %118 = select i1 %117, i64 %116, i64 64
  %119 = select i1 %110, i64 %118, i64 0
  %120 = sub i64 %119, %115
  br label %gl.col26

done24:                                           ; preds = %gl.row22
  ret void

gl.col26:                                         ; preds = %body27, %body23
  %i29 = phi i64 [ 0, %body23 ], [ %128, %body27 ]
  %121 = icmp slt i64 %i29, %120
  br i1 %121, label %body27, label %done28

body27:                                           ; preds = %gl.col26
  %122 = add i64 %i29, %115
  %123 = add i64 %104, %122
  %124 = add i64 %112, %123
  %125 = getelementptr float, ptr %tile17, i64 %122
  %126 = load float, ptr %125, align 4
  %127 = getelementptr float, ptr %Y, i64 %124
  store float %126, ptr %127, align 4
  %128 = add i64 %i29, 1
  br label %gl.col26

done28:                                           ; preds = %gl.col26
  %129 = add i64 %i25, 1
  br label %gl.row22
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #1

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
