; ModuleID = 'mma_small.tk'
source_filename = "mma_small.tk"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @mm__grid(ptr %0, ptr %1, ptr %2) {
entry:
  br label %start

start:                                            ; preds = %entry
  %3 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %3, align 8
  %4 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %4, align 8
  %5 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %5, align 8
  %6 = getelementptr i64, ptr %1, i64 0
  %7 = load i64, ptr %6, align 8
  %M = trunc i64 %7 to i32
  %8 = getelementptr i64, ptr %1, i64 1
  %9 = load i64, ptr %8, align 8
  %K = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 2
  %11 = load i64, ptr %10, align 8
  %N = trunc i64 %11 to i32
  %12 = sdiv i32 %N, 16
  %13 = srem i32 %N, 16
  %14 = icmp sgt i32 %N, 0
  %15 = icmp ne i32 %13, 0
  %16 = and i1 %15, %14
  %17 = zext i1 %16 to i32
  %18 = add i32 %12, %17
  %19 = select i1 true, i32 %18, i32 0
  %20 = sext i32 %19 to i64
  %21 = getelementptr i64, ptr %2, i64 0
  store i64 %20, ptr %21, align 8
  %22 = sdiv i32 %M, 16
  %23 = srem i32 %M, 16
  %24 = icmp sgt i32 %M, 0
  %25 = icmp ne i32 %23, 0
  %26 = and i1 %25, %24
  %27 = zext i1 %26 to i32
  %28 = add i32 %22, %27
  %29 = select i1 true, i32 %28, i32 0
  %30 = sext i32 %29 to i64
  %31 = getelementptr i64, ptr %2, i64 1
  store i64 %30, ptr %31, align 8
  %32 = getelementptr i64, ptr %2, i64 2
  store i64 1, ptr %32, align 8
  ret void
}

define void @mm__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %mk.bad = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 4, align 1
  %acc = alloca [256 x float], align 64
  %a = alloca [256 x i16], align 64
  %b = alloca [256 x i16], align 64
  %mma.b = alloca [256 x float], align 64
  %mma.a = alloca [256 x float], align 64
  br label %start

start:                                            ; preds = %entry
  %5 = getelementptr ptr, ptr %0, i64 0
  %A = load ptr, ptr %5, align 8
  %6 = getelementptr ptr, ptr %0, i64 1
  %B = load ptr, ptr %6, align 8
  %7 = getelementptr ptr, ptr %0, i64 2
  %C = load ptr, ptr %7, align 8
  %8 = getelementptr i64, ptr %1, i64 0
  %9 = load i64, ptr %8, align 8
  %M = trunc i64 %9 to i32
  %10 = getelementptr i64, ptr %1, i64 1
  %11 = load i64, ptr %10, align 8
  %K = trunc i64 %11 to i32
  %12 = getelementptr i64, ptr %1, i64 2
  %13 = load i64, ptr %12, align 8
  %N = trunc i64 %13 to i32
  br label %fill

fill:                                             ; preds = %body, %start
  %i = phi i64 [ 0, %start ], [ %16, %body ]
  %14 = icmp slt i64 %i, 256
  br i1 %14, label %body, label %done

body:                                             ; preds = %fill
  %15 = getelementptr float, ptr %acc, i64 %i
  store float 0.000000e+00, ptr %15, align 4
  %16 = add i64 %i, 1
  br label %fill

done:                                             ; preds = %fill
  %17 = getelementptr i64, ptr %1, i64 0
  %18 = load i64, ptr %17, align 8
  %19 = mul i64 1, %18
  %20 = add i64 0, %19
  %21 = getelementptr i64, ptr %1, i64 1
  %22 = load i64, ptr %21, align 8
  %23 = mul i64 1, %22
  %24 = add i64 0, %23
  %25 = sext i32 %3 to i64
  %26 = icmp slt i64 %25, 1099511627776
  %27 = select i1 %26, i64 %25, i64 1099511627776
  %28 = icmp sgt i64 %27, -1099511627776
  %29 = select i1 %28, i64 %27, i64 -1099511627776
  %30 = mul i64 %29, 16
  %31 = icmp sge i64 %30, 0
  %32 = and i1 true, %31
  %33 = and i1 %32, true
  %34 = add i64 %30, 16
  %35 = icmp sle i64 %34, %20
  %36 = and i1 %33, %35
  %37 = icmp sle i64 16, %24
  %38 = and i1 %36, %37
  br i1 %38, label %gl.inside, label %gl.edge

gl.inside:                                        ; preds = %done
  %39 = mul i64 0, %20
  %40 = add i64 %39, %30
  br label %in.row

gl.edge:                                          ; preds = %done
  call void @llvm.memset.p0.i64(ptr align 64 %a, i8 0, i64 512, i1 false)
  br label %gl.row

gl.done:                                          ; preds = %done8, %done2
  %41 = getelementptr i64, ptr %1, i64 1
  %42 = load i64, ptr %41, align 8
  %43 = mul i64 1, %42
  %44 = add i64 0, %43
  %45 = getelementptr i64, ptr %1, i64 2
  %46 = load i64, ptr %45, align 8
  %47 = mul i64 1, %46
  %48 = add i64 0, %47
  %49 = sext i32 %2 to i64
  %50 = icmp slt i64 %49, 1099511627776
  %51 = select i1 %50, i64 %49, i64 1099511627776
  %52 = icmp sgt i64 %51, -1099511627776
  %53 = select i1 %52, i64 %51, i64 -1099511627776
  %54 = mul i64 %53, 16
  %55 = icmp sge i64 %54, 0
  %56 = and i1 true, %55
  %57 = add i64 %54, 16
  %58 = icmp sle i64 16, %44
  %59 = and i1 %56, %58
  %60 = icmp sle i64 %57, %48
  %61 = and i1 %59, %60
  br i1 %61, label %gl.inside13, label %gl.edge14

in.row:                                           ; preds = %done5, %gl.inside
  %i3 = phi i64 [ 0, %gl.inside ], [ %74, %done5 ]
  %62 = icmp slt i64 %i3, 16
  br i1 %62, label %body1, label %done2

body1:                                            ; preds = %in.row
  %63 = add i64 %40, %i3
  %64 = mul i64 %63, %24
  %65 = add i64 %64, 0
  br label %in.col

done2:                                            ; preds = %in.row
  br label %gl.done

in.col:                                           ; preds = %body4, %body1
  %i6 = phi i64 [ 0, %body1 ], [ %73, %body4 ]
  %66 = icmp slt i64 %i6, 16
  br i1 %66, label %body4, label %done5

body4:                                            ; preds = %in.col
  %67 = mul i64 %i3, 16
  %68 = add i64 %67, %i6
  %69 = add i64 %65, %i6
  %70 = getelementptr i16, ptr %A, i64 %69
  %71 = load i16, ptr %70, align 2
  %72 = getelementptr i16, ptr %a, i64 %68
  store i16 %71, ptr %72, align 2
  %73 = add i64 %i6, 1
  br label %in.col

done5:                                            ; preds = %in.col
  %74 = add i64 %i3, 1
  br label %in.row

gl.row:                                           ; preds = %done11, %gl.edge
  %i9 = phi i64 [ 0, %gl.edge ], [ %99, %done11 ]
  %75 = icmp slt i64 %i9, 16
  br i1 %75, label %body7, label %done8

body7:                                            ; preds = %gl.row
  %76 = add i64 %30, %i9
  %77 = icmp slt i64 %76, %20
  %78 = icmp sge i64 %76, 0
  %79 = and i1 %78, %77
  %80 = and i1 true, %79
  %81 = mul i64 0, %20
  %82 = add i64 %81, %76
  %83 = mul i64 %82, %24
  %84 = sub i64 %24, 0
  %85 = icmp slt i64 %84, 16
  %86 = select i1 %85, i64 %84, i64 16
  %87 = select i1 %80, i64 %86, i64 0
  %88 = sub i64 %87, 0
  br label %gl.col

done8:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body10, %body7
  %i12 = phi i64 [ 0, %body7 ], [ %98, %body10 ]
  %89 = icmp slt i64 %i12, %88
  br i1 %89, label %body10, label %done11

body10:                                           ; preds = %gl.col
  %90 = add i64 %i12, 0
  %91 = mul i64 %i9, 16
  %92 = add i64 %91, %90
  %93 = add i64 0, %90
  %94 = add i64 %83, %93
  %95 = getelementptr i16, ptr %A, i64 %94
  %96 = load i16, ptr %95, align 2
  %97 = getelementptr i16, ptr %a, i64 %92
  store i16 %96, ptr %97, align 2
  %98 = add i64 %i12, 1
  br label %gl.col

done11:                                           ; preds = %gl.col
  %99 = add i64 %i9, 1
  br label %gl.row

gl.inside13:                                      ; preds = %gl.done
  %100 = mul i64 0, %44
  %101 = add i64 %100, 0
  br label %in.row16

gl.edge14:                                        ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row24

gl.done15:                                        ; preds = %done26, %done18
  br label %pack.a

in.row16:                                         ; preds = %done22, %gl.inside13
  %i19 = phi i64 [ 0, %gl.inside13 ], [ %114, %done22 ]
  %102 = icmp slt i64 %i19, 16
  br i1 %102, label %body17, label %done18

body17:                                           ; preds = %in.row16
  %103 = add i64 %101, %i19
  %104 = mul i64 %103, %48
  %105 = add i64 %104, %54
  br label %in.col20

done18:                                           ; preds = %in.row16
  br label %gl.done15

in.col20:                                         ; preds = %body21, %body17
  %i23 = phi i64 [ 0, %body17 ], [ %113, %body21 ]
  %106 = icmp slt i64 %i23, 16
  br i1 %106, label %body21, label %done22

body21:                                           ; preds = %in.col20
  %107 = mul i64 %i23, 16
  %108 = add i64 %107, %i19
  %109 = add i64 %105, %i23
  %110 = getelementptr i16, ptr %B, i64 %109
  %111 = load i16, ptr %110, align 2
  %112 = getelementptr i16, ptr %b, i64 %108
  store i16 %111, ptr %112, align 2
  %113 = add i64 %i23, 1
  br label %in.col20

done22:                                           ; preds = %in.col20
  %114 = add i64 %i19, 1
  br label %in.row16

gl.row24:                                         ; preds = %done30, %gl.edge14
  %i27 = phi i64 [ 0, %gl.edge14 ], [ %142, %done30 ]
  %115 = icmp slt i64 %i27, 16
  br i1 %115, label %body25, label %done26

body25:                                           ; preds = %gl.row24
  %116 = add i64 0, %i27
  %117 = icmp slt i64 %116, %44
  %118 = icmp sge i64 %116, 0
  %119 = and i1 %118, %117
  %120 = and i1 true, %119
  %121 = mul i64 0, %44
  %122 = add i64 %121, %116
  %123 = mul i64 %122, %48
  %124 = sub i64 0, %54
  %125 = icmp sgt i64 %124, 0
  %126 = select i1 %125, i64 %124, i64 0
  %127 = sub i64 %48, %54
  %128 = icmp slt i64 %127, 16
  %129 = select i1 %128, i64 %127, i64 16
  %130 = select i1 %120, i64 %129, i64 0
  %131 = sub i64 %130, %126
  br label %gl.col28

done26:                                           ; preds = %gl.row24
  br label %gl.done15

gl.col28:                                         ; preds = %body29, %body25
  %i31 = phi i64 [ 0, %body25 ], [ %141, %body29 ]
  %132 = icmp slt i64 %i31, %131
  br i1 %132, label %body29, label %done30

body29:                                           ; preds = %gl.col28
  %133 = add i64 %i31, %126
  %134 = mul i64 %133, 16
  %135 = add i64 %134, %i27
  %136 = add i64 %54, %133
  %137 = add i64 %123, %136
  %138 = getelementptr i16, ptr %B, i64 %137
  %139 = load i16, ptr %138, align 2
  %140 = getelementptr i16, ptr %b, i64 %135
  store i16 %139, ptr %140, align 2
  %141 = add i64 %i31, 1
  br label %gl.col28

done30:                                           ; preds = %gl.col28
  %142 = add i64 %i27, 1
  br label %gl.row24

pack.a:                                           ; preds = %done36, %gl.done15
  %i34 = phi i64 [ 0, %gl.done15 ], [ %156, %done36 ]
  %143 = icmp slt i64 %i34, 16
  br i1 %143, label %body32, label %done33

body32:                                           ; preds = %pack.a
  br label %pack.ak

done33:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body35, %body32
  %i37 = phi i64 [ 0, %body32 ], [ %155, %body35 ]
  %144 = icmp slt i64 %i37, 16
  br i1 %144, label %body35, label %done36

body35:                                           ; preds = %pack.ak
  %145 = mul i64 %i34, 16
  %146 = add i64 %145, %i37
  %147 = mul i64 %i34, 16
  %148 = add i64 %147, %i37
  %149 = getelementptr i16, ptr %a, i64 %146
  %150 = load i16, ptr %149, align 2
  %151 = zext i16 %150 to i32
  %152 = shl i32 %151, 16
  %153 = bitcast i32 %152 to float
  %154 = getelementptr float, ptr %mma.a, i64 %148
  store float %153, ptr %154, align 4
  %155 = add i64 %i37, 1
  br label %pack.ak

done36:                                           ; preds = %pack.ak
  %156 = add i64 %i34, 1
  br label %pack.a

pack.b:                                           ; preds = %done42, %done33
  %i40 = phi i64 [ 0, %done33 ], [ %170, %done42 ]
  %157 = icmp slt i64 %i40, 16
  br i1 %157, label %body38, label %done39

body38:                                           ; preds = %pack.b
  br label %pack.bn

done39:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  br label %mk.zrows

pack.bn:                                          ; preds = %body41, %body38
  %i43 = phi i64 [ 0, %body38 ], [ %169, %body41 ]
  %158 = icmp slt i64 %i43, 16
  br i1 %158, label %body41, label %done42

body41:                                           ; preds = %pack.bn
  %159 = mul i64 %i43, 16
  %160 = add i64 %159, %i40
  %161 = mul i64 %i40, 16
  %162 = add i64 %161, %i43
  %163 = getelementptr i16, ptr %b, i64 %160
  %164 = load i16, ptr %163, align 2
  %165 = zext i16 %164 to i32
  %166 = shl i32 %165, 16
  %167 = bitcast i32 %166 to float
  %168 = getelementptr float, ptr %mma.b, i64 %162
  store float %167, ptr %168, align 4
  %169 = add i64 %i43, 1
  br label %pack.bn

done42:                                           ; preds = %pack.bn
  %170 = add i64 %i40, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done45, %done39
  %171 = phi i64 [ 0, %done39 ], [ %192, %mk.done45 ]
  %172 = icmp slt i64 %171, 4
  br i1 %172, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %173 = mul i64 %171, 64
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %174 = load i32, ptr %mk.any, align 4
  %175 = icmp ne i32 %174, 0
  br i1 %175, label %mk.bfinite, label %mk.bchecked

mk.or:                                            ; preds = %mk.body44, %mk.body
  %176 = phi i64 [ 0, %mk.body ], [ %184, %mk.body44 ]
  %177 = icmp slt i64 %176, 64
  br i1 %177, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.or
  %178 = add i64 %173, %176
  %179 = getelementptr i32, ptr %mma.a, i64 %178
  %180 = load i32, ptr %179, align 4
  %181 = and i32 %180, 2147483647
  %182 = load i32, ptr %mk.orv, align 4
  %183 = or i32 %182, %181
  store i32 %183, ptr %mk.orv, align 4
  %184 = add i64 %176, 1
  br label %mk.or

mk.done45:                                        ; preds = %mk.or
  %185 = load i32, ptr %mk.orv, align 4
  %186 = icmp eq i32 %185, 0
  %187 = zext i1 %186 to i32
  %188 = getelementptr i8, ptr %mk.skip, i64 %171
  %189 = trunc i32 %187 to i8
  store i8 %189, ptr %188, align 1
  %190 = load i32, ptr %mk.any, align 4
  %191 = or i32 %190, %187
  store i32 %191, ptr %mk.any, align 4
  %192 = add i64 %171, 1
  br label %mk.zrows

mk.bfinite:                                       ; preds = %mk.done
  store i32 0, ptr %mk.bad, align 4
  br label %mk.bscan

mk.bchecked:                                      ; preds = %mk.done49, %mk.done47, %mk.done
  br label %mk.j

mk.bscan:                                         ; preds = %mk.body46, %mk.bfinite
  %193 = phi i64 [ 0, %mk.bfinite ], [ %202, %mk.body46 ]
  %194 = icmp slt i64 %193, 256
  br i1 %194, label %mk.body46, label %mk.done47

mk.body46:                                        ; preds = %mk.bscan
  %195 = getelementptr i32, ptr %mma.b, i64 %193
  %196 = load i32, ptr %195, align 4
  %197 = and i32 %196, 2139095040
  %198 = icmp eq i32 %197, 2139095040
  %199 = zext i1 %198 to i32
  %200 = load i32, ptr %mk.bad, align 4
  %201 = or i32 %200, %199
  store i32 %201, ptr %mk.bad, align 4
  %202 = add i64 %193, 1
  br label %mk.bscan

mk.done47:                                        ; preds = %mk.bscan
  %203 = load i32, ptr %mk.bad, align 4
  %204 = icmp ne i32 %203, 0
  br i1 %204, label %mk.noskip, label %mk.bchecked

mk.noskip:                                        ; preds = %mk.done47
  br label %mk.clear

mk.clear:                                         ; preds = %mk.body48, %mk.noskip
  %205 = phi i64 [ 0, %mk.noskip ], [ %208, %mk.body48 ]
  %206 = icmp slt i64 %205, 4
  br i1 %206, label %mk.body48, label %mk.done49

mk.body48:                                        ; preds = %mk.clear
  %207 = getelementptr i8, ptr %mk.skip, i64 %205
  store i8 0, ptr %207, align 1
  %208 = add i64 %205, 1
  br label %mk.clear

mk.done49:                                        ; preds = %mk.clear
  br label %mk.bchecked

mk.j:                                             ; preds = %mk.done53, %mk.bchecked
  %209 = phi i64 [ 0, %mk.bchecked ], [ %247, %mk.done53 ]
  %210 = icmp slt i64 %209, 16
  br i1 %210, label %mk.body50, label %mk.done51

mk.body50:                                        ; preds = %mk.j
  br label %mk.i

mk.done51:                                        ; preds = %mk.j
  %211 = getelementptr i64, ptr %1, i64 0
  %212 = load i64, ptr %211, align 8
  %213 = mul i64 1, %212
  %214 = add i64 0, %213
  %215 = getelementptr i64, ptr %1, i64 2
  %216 = load i64, ptr %215, align 8
  %217 = mul i64 1, %216
  %218 = add i64 0, %217
  %219 = sext i32 %3 to i64
  %220 = icmp slt i64 %219, 1099511627776
  %221 = select i1 %220, i64 %219, i64 1099511627776
  %222 = icmp sgt i64 %221, -1099511627776
  %223 = select i1 %222, i64 %221, i64 -1099511627776
  %224 = mul i64 %223, 16
  %225 = sext i32 %2 to i64
  %226 = icmp slt i64 %225, 1099511627776
  %227 = select i1 %226, i64 %225, i64 1099511627776
  %228 = icmp sgt i64 %227, -1099511627776
  %229 = select i1 %228, i64 %227, i64 -1099511627776
  %230 = mul i64 %229, 16
  %231 = icmp sge i64 %224, 0
  %232 = and i1 true, %231
  %233 = icmp sge i64 %230, 0
  %234 = and i1 %232, %233
  %235 = add i64 %224, 16
  %236 = add i64 %230, 16
  %237 = icmp sle i64 %235, %214
  %238 = and i1 %234, %237
  %239 = icmp sle i64 %236, %218
  %240 = and i1 %238, %239
  br i1 %240, label %gl.inside62, label %gl.edge63

mk.i:                                             ; preds = %mk.next, %mk.body50
  %241 = phi i64 [ 0, %mk.body50 ], [ %296, %mk.next ]
  %242 = icmp slt i64 %241, 16
  br i1 %242, label %mk.body52, label %mk.done53

mk.body52:                                        ; preds = %mk.i
  %243 = sdiv i64 %241, 4
  %244 = getelementptr i8, ptr %mk.skip, i64 %243
  %245 = load i8, ptr %244, align 1
  %246 = icmp eq i8 %245, 0
  br i1 %246, label %mk.work, label %mk.next

mk.done53:                                        ; preds = %mk.i
  %247 = add i64 %209, 16
  br label %mk.j

mk.work:                                          ; preds = %mk.body52
  %248 = add i64 %209, 0
  %249 = add i64 %241, 0
  %250 = mul i64 %249, 16
  %251 = add i64 %250, %248
  %252 = getelementptr float, ptr %acc, i64 %251
  %253 = load <8 x float>, ptr %252, align 4
  %254 = add i64 %209, 8
  %255 = add i64 %241, 0
  %256 = mul i64 %255, 16
  %257 = add i64 %256, %254
  %258 = getelementptr float, ptr %acc, i64 %257
  %259 = load <8 x float>, ptr %258, align 4
  %260 = add i64 %209, 0
  %261 = add i64 %241, 1
  %262 = mul i64 %261, 16
  %263 = add i64 %262, %260
  %264 = getelementptr float, ptr %acc, i64 %263
  %265 = load <8 x float>, ptr %264, align 4
  %266 = add i64 %209, 8
  %267 = add i64 %241, 1
  %268 = mul i64 %267, 16
  %269 = add i64 %268, %266
  %270 = getelementptr float, ptr %acc, i64 %269
  %271 = load <8 x float>, ptr %270, align 4
  %272 = add i64 %209, 0
  %273 = add i64 %241, 2
  %274 = mul i64 %273, 16
  %275 = add i64 %274, %272
  %276 = getelementptr float, ptr %acc, i64 %275
  %277 = load <8 x float>, ptr %276, align 4
  %278 = add i64 %209, 8
  %279 = add i64 %241, 2
  %280 = mul i64 %279, 16
  %281 = add i64 %280, %278
  %282 = getelementptr float, ptr %acc, i64 %281
  %283 = load <8 x float>, ptr %282, align 4
  %284 = add i64 %209, 0
  %285 = add i64 %241, 3
  %286 = mul i64 %285, 16
  %287 = add i64 %286, %284
  %288 = getelementptr float, ptr %acc, i64 %287
  %289 = load <8 x float>, ptr %288, align 4
  %290 = add i64 %209, 8
  %291 = add i64 %241, 3
  %292 = mul i64 %291, 16
  %293 = add i64 %292, %290
  %294 = getelementptr float, ptr %acc, i64 %293
  %295 = load <8 x float>, ptr %294, align 4
  br label %mk.k

mk.next:                                          ; preds = %mk.kdone, %mk.body52
  %296 = add i64 %241, 4
  br label %mk.i

mk.k:                                             ; preds = %mk.kbody, %mk.work
  %k = phi i64 [ 0, %mk.work ], [ %346, %mk.kbody ]
  %acc54 = phi <8 x float> [ %253, %mk.work ], [ %317, %mk.kbody ]
  %acc55 = phi <8 x float> [ %259, %mk.work ], [ %318, %mk.kbody ]
  %acc56 = phi <8 x float> [ %265, %mk.work ], [ %326, %mk.kbody ]
  %acc57 = phi <8 x float> [ %271, %mk.work ], [ %327, %mk.kbody ]
  %acc58 = phi <8 x float> [ %277, %mk.work ], [ %335, %mk.kbody ]
  %acc59 = phi <8 x float> [ %283, %mk.work ], [ %336, %mk.kbody ]
  %acc60 = phi <8 x float> [ %289, %mk.work ], [ %344, %mk.kbody ]
  %acc61 = phi <8 x float> [ %295, %mk.work ], [ %345, %mk.kbody ]
  %297 = icmp slt i64 %k, 16
  br i1 %297, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %298 = add i64 %209, 0
  %299 = mul i64 %298, 1
  %300 = mul i64 %k, 16
  %301 = add i64 %300, %299
  %302 = getelementptr float, ptr %mma.b, i64 %301
  %303 = load <8 x float>, ptr %302, align 4
  %304 = add i64 %209, 8
  %305 = mul i64 %304, 1
  %306 = mul i64 %k, 16
  %307 = add i64 %306, %305
  %308 = getelementptr float, ptr %mma.b, i64 %307
  %309 = load <8 x float>, ptr %308, align 4
  %310 = add i64 %241, 0
  %311 = mul i64 %310, 16
  %312 = add i64 %311, %k
  %313 = getelementptr float, ptr %mma.a, i64 %312
  %314 = load float, ptr %313, align 4
  %315 = insertelement <8 x float> poison, float %314, i32 0
  %316 = shufflevector <8 x float> %315, <8 x float> poison, <8 x i32> zeroinitializer
  %317 = call <8 x float> @llvm.fma.v8f32(<8 x float> %316, <8 x float> %303, <8 x float> %acc54)
  %318 = call <8 x float> @llvm.fma.v8f32(<8 x float> %316, <8 x float> %309, <8 x float> %acc55)
  %319 = add i64 %241, 1
  %320 = mul i64 %319, 16
  %321 = add i64 %320, %k
  %322 = getelementptr float, ptr %mma.a, i64 %321
  %323 = load float, ptr %322, align 4
  %324 = insertelement <8 x float> poison, float %323, i32 0
  %325 = shufflevector <8 x float> %324, <8 x float> poison, <8 x i32> zeroinitializer
  %326 = call <8 x float> @llvm.fma.v8f32(<8 x float> %325, <8 x float> %303, <8 x float> %acc56)
  %327 = call <8 x float> @llvm.fma.v8f32(<8 x float> %325, <8 x float> %309, <8 x float> %acc57)
  %328 = add i64 %241, 2
  %329 = mul i64 %328, 16
  %330 = add i64 %329, %k
  %331 = getelementptr float, ptr %mma.a, i64 %330
  %332 = load float, ptr %331, align 4
  %333 = insertelement <8 x float> poison, float %332, i32 0
  %334 = shufflevector <8 x float> %333, <8 x float> poison, <8 x i32> zeroinitializer
  %335 = call <8 x float> @llvm.fma.v8f32(<8 x float> %334, <8 x float> %303, <8 x float> %acc58)
  %336 = call <8 x float> @llvm.fma.v8f32(<8 x float> %334, <8 x float> %309, <8 x float> %acc59)
  %337 = add i64 %241, 3
  %338 = mul i64 %337, 16
  %339 = add i64 %338, %k
  %340 = getelementptr float, ptr %mma.a, i64 %339
  %341 = load float, ptr %340, align 4
  %342 = insertelement <8 x float> poison, float %341, i32 0
  %343 = shufflevector <8 x float> %342, <8 x float> poison, <8 x i32> zeroinitializer
  %344 = call <8 x float> @llvm.fma.v8f32(<8 x float> %343, <8 x float> %303, <8 x float> %acc60)
  %345 = call <8 x float> @llvm.fma.v8f32(<8 x float> %343, <8 x float> %309, <8 x float> %acc61)
  %346 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %347 = add i64 %209, 0
  %348 = add i64 %241, 0
  %349 = mul i64 %348, 16
  %350 = add i64 %349, %347
  %351 = getelementptr float, ptr %acc, i64 %350
  store <8 x float> %acc54, ptr %351, align 4
  %352 = add i64 %209, 8
  %353 = add i64 %241, 0
  %354 = mul i64 %353, 16
  %355 = add i64 %354, %352
  %356 = getelementptr float, ptr %acc, i64 %355
  store <8 x float> %acc55, ptr %356, align 4
  %357 = add i64 %209, 0
  %358 = add i64 %241, 1
  %359 = mul i64 %358, 16
  %360 = add i64 %359, %357
  %361 = getelementptr float, ptr %acc, i64 %360
  store <8 x float> %acc56, ptr %361, align 4
  %362 = add i64 %209, 8
  %363 = add i64 %241, 1
  %364 = mul i64 %363, 16
  %365 = add i64 %364, %362
  %366 = getelementptr float, ptr %acc, i64 %365
  store <8 x float> %acc57, ptr %366, align 4
  %367 = add i64 %209, 0
  %368 = add i64 %241, 2
  %369 = mul i64 %368, 16
  %370 = add i64 %369, %367
  %371 = getelementptr float, ptr %acc, i64 %370
  store <8 x float> %acc58, ptr %371, align 4
  %372 = add i64 %209, 8
  %373 = add i64 %241, 2
  %374 = mul i64 %373, 16
  %375 = add i64 %374, %372
  %376 = getelementptr float, ptr %acc, i64 %375
  store <8 x float> %acc59, ptr %376, align 4
  %377 = add i64 %209, 0
  %378 = add i64 %241, 3
  %379 = mul i64 %378, 16
  %380 = add i64 %379, %377
  %381 = getelementptr float, ptr %acc, i64 %380
  store <8 x float> %acc60, ptr %381, align 4
  %382 = add i64 %209, 8
  %383 = add i64 %241, 3
  %384 = mul i64 %383, 16
  %385 = add i64 %384, %382
  %386 = getelementptr float, ptr %acc, i64 %385
  store <8 x float> %acc61, ptr %386, align 4
  br label %mk.next

gl.inside62:                                      ; preds = %mk.done51
  %387 = mul i64 0, %214
  %388 = add i64 %387, %224
  br label %in.row65

gl.edge63:                                        ; preds = %mk.done51
  br label %gl.row73

gl.done64:                                        ; preds = %done75, %done67
  ret void

in.row65:                                         ; preds = %done71, %gl.inside62
  %i68 = phi i64 [ 0, %gl.inside62 ], [ %401, %done71 ]
  %389 = icmp slt i64 %i68, 16
  br i1 %389, label %body66, label %done67

body66:                                           ; preds = %in.row65
  %390 = add i64 %388, %i68
  %391 = mul i64 %390, %218
  %392 = add i64 %391, %230
  br label %in.col69

done67:                                           ; preds = %in.row65
  br label %gl.done64

in.col69:                                         ; preds = %body70, %body66
  %i72 = phi i64 [ 0, %body66 ], [ %400, %body70 ]
  %393 = icmp slt i64 %i72, 16
  br i1 %393, label %body70, label %done71

body70:                                           ; preds = %in.col69
  %394 = mul i64 %i68, 16
  %395 = add i64 %394, %i72
  %396 = add i64 %392, %i72
  %397 = getelementptr float, ptr %acc, i64 %395
  %398 = load float, ptr %397, align 4
  %399 = getelementptr float, ptr %C, i64 %396
  store float %398, ptr %399, align 4
  %400 = add i64 %i72, 1
  br label %in.col69

done71:                                           ; preds = %in.col69
  %401 = add i64 %i68, 1
  br label %in.row65

gl.row73:                                         ; preds = %done79, %gl.edge63
  %i76 = phi i64 [ 0, %gl.edge63 ], [ %429, %done79 ]
  %402 = icmp slt i64 %i76, 16
  br i1 %402, label %body74, label %done75

body74:                                           ; preds = %gl.row73
  %403 = add i64 %224, %i76
  %404 = icmp slt i64 %403, %214
  %405 = icmp sge i64 %403, 0
  %406 = and i1 %405, %404
  %407 = and i1 true, %406
  %408 = mul i64 0, %214
  %409 = add i64 %408, %403
  %410 = mul i64 %409, %218
  %411 = sub i64 0, %230
  %412 = icmp sgt i64 %411, 0
  %413 = select i1 %412, i64 %411, i64 0
  %414 = sub i64 %218, %230
  %415 = icmp slt i64 %414, 16
  %416 = select i1 %415, i64 %414, i64 16
  %417 = select i1 %407, i64 %416, i64 0
  %418 = sub i64 %417, %413
  br label %gl.col77

done75:                                           ; preds = %gl.row73
  br label %gl.done64

gl.col77:                                         ; preds = %body78, %body74
  %i80 = phi i64 [ 0, %body74 ], [ %428, %body78 ]
  %419 = icmp slt i64 %i80, %418
  br i1 %419, label %body78, label %done79

body78:                                           ; preds = %gl.col77
  %420 = add i64 %i80, %413
  %421 = mul i64 %i76, 16
  %422 = add i64 %421, %420
  %423 = add i64 %230, %420
  %424 = add i64 %410, %423
  %425 = getelementptr float, ptr %acc, i64 %422
  %426 = load float, ptr %425, align 4
  %427 = getelementptr float, ptr %C, i64 %424
  store float %426, ptr %427, align 4
  %428 = add i64 %i80, 1
  br label %gl.col77

done79:                                           ; preds = %gl.col77
  %429 = add i64 %i76, 1
  br label %gl.row73
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
