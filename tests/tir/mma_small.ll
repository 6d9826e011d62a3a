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
  br label %mk.j

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

mk.j:                                             ; preds = %mk.done45, %done39
  %171 = phi i64 [ 0, %done39 ], [ %253, %mk.done45 ]
  %172 = icmp slt i64 %171, 16
  br i1 %172, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.j
  br label %mk.i

mk.done:                                          ; preds = %mk.j
  %173 = getelementptr i64, ptr %1, i64 0
  %174 = load i64, ptr %173, align 8
  %175 = mul i64 1, %174
  %176 = add i64 0, %175
  %177 = getelementptr i64, ptr %1, i64 2
  %178 = load i64, ptr %177, align 8
  %179 = mul i64 1, %178
  %180 = add i64 0, %179
  %181 = sext i32 %3 to i64
  %182 = icmp slt i64 %181, 1099511627776
  %183 = select i1 %182, i64 %181, i64 1099511627776
  %184 = icmp sgt i64 %183, -1099511627776
  %185 = select i1 %184, i64 %183, i64 -1099511627776
  %186 = mul i64 %185, 16
  %187 = sext i32 %2 to i64
  %188 = icmp slt i64 %187, 1099511627776
  %189 = select i1 %188, i64 %187, i64 1099511627776
  %190 = icmp sgt i64 %189, -1099511627776
  %191 = select i1 %190, i64 %189, i64 -1099511627776
  %192 = mul i64 %191, 16
  %193 = icmp sge i64 %186, 0
  %194 = and i1 true, %193
  %195 = icmp sge i64 %192, 0
  %196 = and i1 %194, %195
  %197 = add i64 %186, 16
  %198 = add i64 %192, 16
  %199 = icmp sle i64 %197, %176
  %200 = and i1 %196, %199
  %201 = icmp sle i64 %198, %180
  %202 = and i1 %200, %201
  br i1 %202, label %gl.inside54, label %gl.edge55

mk.i:                                             ; preds = %mk.kdone, %mk.body
  %203 = phi i64 [ 0, %mk.body ], [ %344, %mk.kdone ]
  %204 = icmp slt i64 %203, 16
  br i1 %204, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.i
  %205 = add i64 %171, 0
  %206 = add i64 %203, 0
  %207 = mul i64 %206, 16
  %208 = add i64 %207, %205
  %209 = getelementptr float, ptr %acc, i64 %208
  %210 = load <8 x float>, ptr %209, align 4
  %211 = add i64 %171, 8
  %212 = add i64 %203, 0
  %213 = mul i64 %212, 16
  %214 = add i64 %213, %211
  %215 = getelementptr float, ptr %acc, i64 %214
  %216 = load <8 x float>, ptr %215, align 4
  %217 = add i64 %171, 0
  %218 = add i64 %203, 1
  %219 = mul i64 %218, 16
  %220 = add i64 %219, %217
  %221 = getelementptr float, ptr %acc, i64 %220
  %222 = load <8 x float>, ptr %221, align 4
  %223 = add i64 %171, 8
  %224 = add i64 %203, 1
  %225 = mul i64 %224, 16
  %226 = add i64 %225, %223
  %227 = getelementptr float, ptr %acc, i64 %226
  %228 = load <8 x float>, ptr %227, align 4
  %229 = add i64 %171, 0
  %230 = add i64 %203, 2
  %231 = mul i64 %230, 16
  %232 = add i64 %231, %229
  %233 = getelementptr float, ptr %acc, i64 %232
  %234 = load <8 x float>, ptr %233, align 4
  %235 = add i64 %171, 8
  %236 = add i64 %203, 2
  %237 = mul i64 %236, 16
  %238 = add i64 %237, %235
  %239 = getelementptr float, ptr %acc, i64 %238
  %240 = load <8 x float>, ptr %239, align 4
  %241 = add i64 %171, 0
  %242 = add i64 %203, 3
  %243 = mul i64 %242, 16
  %244 = add i64 %243, %241
  %245 = getelementptr float, ptr %acc, i64 %244
  %246 = load <8 x float>, ptr %245, align 4
  %247 = add i64 %171, 8
  %248 = add i64 %203, 3
  %249 = mul i64 %248, 16
  %250 = add i64 %249, %247
  %251 = getelementptr float, ptr %acc, i64 %250
  %252 = load <8 x float>, ptr %251, align 4
  br label %mk.k

mk.done45:                                        ; preds = %mk.i
  %253 = add i64 %171, 16
  br label %mk.j

mk.k:                                             ; preds = %mk.kbody, %mk.body44
  %k = phi i64 [ 0, %mk.body44 ], [ %303, %mk.kbody ]
  %acc46 = phi <8 x float> [ %210, %mk.body44 ], [ %274, %mk.kbody ]
  %acc47 = phi <8 x float> [ %216, %mk.body44 ], [ %275, %mk.kbody ]
  %acc48 = phi <8 x float> [ %222, %mk.body44 ], [ %283, %mk.kbody ]
  %acc49 = phi <8 x float> [ %228, %mk.body44 ], [ %284, %mk.kbody ]
  %acc50 = phi <8 x float> [ %234, %mk.body44 ], [ %292, %mk.kbody ]
  %acc51 = phi <8 x float> [ %240, %mk.body44 ], [ %293, %mk.kbody ]
  %acc52 = phi <8 x float> [ %246, %mk.body44 ], [ %301, %mk.kbody ]
  %acc53 = phi <8 x float> [ %252, %mk.body44 ], [ %302, %mk.kbody ]
  %254 = icmp slt i64 %k, 16
  br i1 %254, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %255 = add i64 %171, 0
  %256 = mul i64 %255, 1
  %257 = mul i64 %k, 16
  %258 = add i64 %257, %256
  %259 = getelementptr float, ptr %mma.b, i64 %258
  %260 = load <8 x float>, ptr %259, align 4
  %261 = add i64 %171, 8
  %262 = mul i64 %261, 1
  %263 = mul i64 %k, 16
  %264 = add i64 %263, %262
  %265 = getelementptr float, ptr %mma.b, i64 %264
  %266 = load <8 x float>, ptr %265, align 4
  %267 = add i64 %203, 0
  %268 = mul i64 %267, 16
  %269 = add i64 %268, %k
  %270 = getelementptr float, ptr %mma.a, i64 %269
  %271 = load float, ptr %270, align 4
  %272 = insertelement <8 x float> poison, float %271, i32 0
  %273 = shufflevector <8 x float> %272, <8 x float> poison, <8 x i32> zeroinitializer
  %274 = call <8 x float> @llvm.fma.v8f32(<8 x float> %273, <8 x float> %260, <8 x float> %acc46)
  %275 = call <8 x float> @llvm.fma.v8f32(<8 x float> %273, <8 x float> %266, <8 x float> %acc47)
  %276 = add i64 %203, 1
  %277 = mul i64 %276, 16
  %278 = add i64 %277, %k
  %279 = getelementptr float, ptr %mma.a, i64 %278
  %280 = load float, ptr %279, align 4
  %281 = insertelement <8 x float> poison, float %280, i32 0
  %282 = shufflevector <8 x float> %281, <8 x float> poison, <8 x i32> zeroinitializer
  %283 = call <8 x float> @llvm.fma.v8f32(<8 x float> %282, <8 x float> %260, <8 x float> %acc48)
  %284 = call <8 x float> @llvm.fma.v8f32(<8 x float> %282, <8 x float> %266, <8 x float> %acc49)
  %285 = add i64 %203, 2
  %286 = mul i64 %285, 16
  %287 = add i64 %286, %k
  %288 = getelementptr float, ptr %mma.a, i64 %287
  %289 = load float, ptr %288, align 4
  %290 = insertelement <8 x float> poison, float %289, i32 0
  %291 = shufflevector <8 x float> %290, <8 x float> poison, <8 x i32> zeroinitializer
  %292 = call <8 x float> @llvm.fma.v8f32(<8 x float> %291, <8 x float> %260, <8 x float> %acc50)
  %293 = call <8 x float> @llvm.fma.v8f32(<8 x float> %291, <8 x float> %266, <8 x float> %acc51)
  %294 = add i64 %203, 3
  %295 = mul i64 %294, 16
  %296 = add i64 %295, %k
  %297 = getelementptr float, ptr %mma.a, i64 %296
  %298 = load float, ptr %297, align 4
  %299 = insertelement <8 x float> poison, float %298, i32 0
  %300 = shufflevector <8 x float> %299, <8 x float> poison, <8 x i32> zeroinitializer
  %301 = call <8 x float> @llvm.fma.v8f32(<8 x float> %300, <8 x float> %260, <8 x float> %acc52)
  %302 = call <8 x float> @llvm.fma.v8f32(<8 x float> %300, <8 x float> %266, <8 x float> %acc53)
  %303 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %304 = add i64 %171, 0
  %305 = add i64 %203, 0
  %306 = mul i64 %305, 16
  %307 = add i64 %306, %304
  %308 = getelementptr float, ptr %acc, i64 %307
  store <8 x float> %acc46, ptr %308, align 4
  %309 = add i64 %171, 8
  %310 = add i64 %203, 0
  %311 = mul i64 %310, 16
  %312 = add i64 %311, %309
  %313 = getelementptr float, ptr %acc, i64 %312
  store <8 x float> %acc47, ptr %313, align 4
  %314 = add i64 %171, 0
  %315 = add i64 %203, 1
  %316 = mul i64 %315, 16
  %317 = add i64 %316, %314
  %318 = getelementptr float, ptr %acc, i64 %317
  store <8 x float> %acc48, ptr %318, align 4
  %319 = add i64 %171, 8
  %320 = add i64 %203, 1
  %321 = mul i64 %320, 16
  %322 = add i64 %321, %319
  %323 = getelementptr float, ptr %acc, i64 %322
  store <8 x float> %acc49, ptr %323, align 4
  %324 = add i64 %171, 0
  %325 = add i64 %203, 2
  %326 = mul i64 %325, 16
  %327 = add i64 %326, %324
  %328 = getelementptr float, ptr %acc, i64 %327
  store <8 x float> %acc50, ptr %328, align 4
  %329 = add i64 %171, 8
  %330 = add i64 %203, 2
  %331 = mul i64 %330, 16
  %332 = add i64 %331, %329
  %333 = getelementptr float, ptr %acc, i64 %332
  store <8 x float> %acc51, ptr %333, align 4
  %334 = add i64 %171, 0
  %335 = add i64 %203, 3
  %336 = mul i64 %335, 16
  %337 = add i64 %336, %334
  %338 = getelementptr float, ptr %acc, i64 %337
  store <8 x float> %acc52, ptr %338, align 4
  %339 = add i64 %171, 8
  %340 = add i64 %203, 3
  %341 = mul i64 %340, 16
  %342 = add i64 %341, %339
  %343 = getelementptr float, ptr %acc, i64 %342
  store <8 x float> %acc53, ptr %343, align 4
  %344 = add i64 %203, 4
  br label %mk.i

gl.inside54:                                      ; preds = %mk.done
  %345 = mul i64 0, %176
  %346 = add i64 %345, %186
  br label %in.row57

gl.edge55:                                        ; preds = %mk.done
  br label %gl.row65

gl.done56:                                        ; preds = %done67, %done59
  ret void

in.row57:                                         ; preds = %done63, %gl.inside54
  %i60 = phi i64 [ 0, %gl.inside54 ], [ %359, %done63 ]
  %347 = icmp slt i64 %i60, 16
  br i1 %347, label %body58, label %done59

body58:                                           ; preds = %in.row57
  %348 = add i64 %346, %i60
  %349 = mul i64 %348, %180
  %350 = add i64 %349, %192
  br label %in.col61

done59:                                           ; preds = %in.row57
  br label %gl.done56

in.col61:                                         ; preds = %body62, %body58
  %i64 = phi i64 [ 0, %body58 ], [ %358, %body62 ]
  %351 = icmp slt i64 %i64, 16
  br i1 %351, label %body62, label %done63

body62:                                           ; preds = %in.col61
  %352 = mul i64 %i60, 16
  %353 = add i64 %352, %i64
  %354 = add i64 %350, %i64
  %355 = getelementptr float, ptr %acc, i64 %353
  %356 = load float, ptr %355, align 4
  %357 = getelementptr float, ptr %C, i64 %354
  store float %356, ptr %357, align 4
  %358 = add i64 %i64, 1
  br label %in.col61

done63:                                           ; preds = %in.col61
  %359 = add i64 %i60, 1
  br label %in.row57

gl.row65:                                         ; preds = %done71, %gl.edge55
  %i68 = phi i64 [ 0, %gl.edge55 ], [ %387, %done71 ]
  %360 = icmp slt i64 %i68, 16
  br i1 %360, label %body66, label %done67

body66:                                           ; preds = %gl.row65
  %361 = add i64 %186, %i68
  %362 = icmp slt i64 %361, %176
  %363 = icmp sge i64 %361, 0
  %364 = and i1 %363, %362
  %365 = and i1 true, %364
  %366 = mul i64 0, %176
  %367 = add i64 %366, %361
  %368 = mul i64 %367, %180
  %369 = sub i64 0, %192
  %370 = icmp sgt i64 %369, 0
  %371 = select i1 %370, i64 %369, i64 0
  %372 = sub i64 %180, %192
  %373 = icmp slt i64 %372, 16
  %374 = select i1 %373, i64 %372, i64 16
  %375 = select i1 %365, i64 %374, i64 0
  %376 = sub i64 %375, %371
  br label %gl.col69

done67:                                           ; preds = %gl.row65
  br label %gl.done56

gl.col69:                                         ; preds = %body70, %body66
  %i72 = phi i64 [ 0, %body66 ], [ %386, %body70 ]
  %377 = icmp slt i64 %i72, %376
  br i1 %377, label %body70, label %done71

body70:                                           ; preds = %gl.col69
  %378 = add i64 %i72, %371
  %379 = mul i64 %i68, 16
  %380 = add i64 %379, %378
  %381 = add i64 %192, %378
  %382 = add i64 %368, %381
  %383 = getelementptr float, ptr %acc, i64 %380
  %384 = load float, ptr %383, align 4
  %385 = getelementptr float, ptr %C, i64 %382
  store float %384, ptr %385, align 4
  %386 = add i64 %i72, 1
  br label %gl.col69

done71:                                           ; preds = %gl.col69
  %387 = add i64 %i68, 1
  br label %gl.row65
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
