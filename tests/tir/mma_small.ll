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
  %33 = getelementptr i64, ptr %2, i64 3
  store i64 266560, ptr %33, align 8
  ret void
}

define void @mm__block(ptr %0, ptr %1, i32 %2, i32 %3, i32 %4) {
entry:
  %mk.bbad = alloca i32, i64 1, align 4
  %mk.first = alloca i64, i64 1, align 8
  %mk.all = alloca i32, i64 1, align 4
  %mk.any = alloca i32, i64 1, align 4
  %mk.orv = alloca i32, i64 1, align 4
  %mk.skip = alloca i8, i64 8, align 1
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

gl.done:                                          ; preds = %done5, %done2
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
  br i1 %61, label %gl.inside10, label %gl.edge11

in.row:                                           ; preds = %body1, %gl.inside
  %i3 = phi i64 [ 0, %gl.inside ], [ %72, %body1 ]
  %62 = icmp slt i64 %i3, 16
  br i1 %62, label %body1, label %done2

body1:                                            ; preds = %in.row
  %63 = add i64 %40, %i3
  %64 = mul i64 %63, %24
  %65 = add i64 %64, 0
  %66 = mul i64 %i3, 16
  %67 = add i64 %66, 0
  %68 = add i64 %65, 0
  %69 = getelementptr i16, ptr %A, i64 %68
  %70 = getelementptr i16, ptr %a, i64 %67
  %71 = load <16 x i16>, ptr %69, align 2
  store <16 x i16> %71, ptr %70, align 2
  %72 = add i64 %i3, 1
  br label %in.row

done2:                                            ; preds = %in.row
  br label %gl.done

gl.row:                                           ; preds = %done8, %gl.edge
  %i6 = phi i64 [ 0, %gl.edge ], [ %97, %done8 ]
  %73 = icmp slt i64 %i6, 16
  br i1 %73, label %body4, label %done5

body4:                                            ; preds = %gl.row
  %74 = add i64 %30, %i6
  %75 = icmp slt i64 %74, %20
  %76 = icmp sge i64 %74, 0
  %77 = and i1 %76, %75
  %78 = and i1 true, %77
  %79 = mul i64 0, %20
  %80 = add i64 %79, %74
  %81 = mul i64 %80, %24
  %82 = sub i64 %24, 0
  %83 = icmp slt i64 %82, 16
  %84 = select i1 %83, i64 %82, i64 16
  %85 = select i1 %78, i64 %84, i64 0
  %86 = sub i64 %85, 0
  br label %gl.col

done5:                                            ; preds = %gl.row
  br label %gl.done

gl.col:                                           ; preds = %body7, %body4
  %i9 = phi i64 [ 0, %body4 ], [ %96, %body7 ]
  %87 = icmp slt i64 %i9, %86
  br i1 %87, label %body7, label %done8

body7:                                            ; preds = %gl.col
  %88 = add i64 %i9, 0
  %89 = mul i64 %i6, 16
  %90 = add i64 %89, %88
  %91 = add i64 0, %88
  %92 = add i64 %81, %91
  %93 = getelementptr i16, ptr %A, i64 %92
  %94 = load i16, ptr %93, align 2
  %95 = getelementptr i16, ptr %a, i64 %90
  store i16 %94, ptr %95, align 2
  %96 = add i64 %i9, 1
  br label %gl.col

done8:                                            ; preds = %gl.col
  %97 = add i64 %i6, 1
  br label %gl.row

gl.inside10:                                      ; preds = %gl.done
  %98 = mul i64 0, %44
  %99 = add i64 %98, 0
  br label %in.row13

gl.edge11:                                        ; preds = %gl.done
  call void @llvm.memset.p0.i64(ptr align 64 %b, i8 0, i64 512, i1 false)
  br label %gl.row20

gl.done12:                                        ; preds = %done22, %done15
  br label %pack.a

in.row13:                                         ; preds = %done18, %gl.inside10
  %i16 = phi i64 [ 0, %gl.inside10 ], [ %112, %done18 ]
  %100 = icmp slt i64 %i16, 16
  br i1 %100, label %body14, label %done15

body14:                                           ; preds = %in.row13
  %101 = add i64 %99, %i16
  %102 = mul i64 %101, %48
  %103 = add i64 %102, %54
  br label %in.col

done15:                                           ; preds = %in.row13
  br label %gl.done12

in.col:                                           ; preds = %body17, %body14
  %i19 = phi i64 [ 0, %body14 ], [ %111, %body17 ]
  %104 = icmp slt i64 %i19, 16
  br i1 %104, label %body17, label %done18

body17:                                           ; preds = %in.col
  %105 = mul i64 %i19, 16
  %106 = add i64 %105, %i16
  %107 = add i64 %103, %i19
  %108 = getelementptr i16, ptr %B, i64 %107
  %109 = load i16, ptr %108, align 2
  %110 = getelementptr i16, ptr %b, i64 %106
  store i16 %109, ptr %110, align 2
  %111 = add i64 %i19, 1
  br label %in.col

done18:                                           ; preds = %in.col
  %112 = add i64 %i16, 1
  br label %in.row13

gl.row20:                                         ; preds = %done26, %gl.edge11
  %i23 = phi i64 [ 0, %gl.edge11 ], [ %140, %done26 ]
  %113 = icmp slt i64 %i23, 16
  br i1 %113, label %body21, label %done22

body21:                                           ; preds = %gl.row20
  %114 = add i64 0, %i23
  %115 = icmp slt i64 %114, %44
  %116 = icmp sge i64 %114, 0
  %117 = and i1 %116, %115
  %118 = and i1 true, %117
  %119 = mul i64 0, %44
  %120 = add i64 %119, %114
  %121 = mul i64 %120, %48
  %122 = sub i64 0, %54
  %123 = icmp sgt i64 %122, 0
  %124 = select i1 %123, i64 %122, i64 0
  %125 = sub i64 %48, %54
  %126 = icmp slt i64 %125, 16
  %127 = select i1 %126, i64 %125, i64 16
  %128 = select i1 %118, i64 %127, i64 0
  %129 = sub i64 %128, %124
  br label %gl.col24

done22:                                           ; preds = %gl.row20
  br label %gl.done12

gl.col24:                                         ; preds = %body25, %body21
  %i27 = phi i64 [ 0, %body21 ], [ %139, %body25 ]
  %130 = icmp slt i64 %i27, %129
  br i1 %130, label %body25, label %done26

body25:                                           ; preds = %gl.col24
  %131 = add i64 %i27, %124
  %132 = mul i64 %131, 16
  %133 = add i64 %132, %i23
  %134 = add i64 %54, %131
  %135 = add i64 %121, %134
  %136 = getelementptr i16, ptr %B, i64 %135
  %137 = load i16, ptr %136, align 2
  %138 = getelementptr i16, ptr %b, i64 %133
  store i16 %137, ptr %138, align 2
  %139 = add i64 %i27, 1
  br label %gl.col24

done26:                                           ; preds = %gl.col24
  %140 = add i64 %i23, 1
  br label %gl.row20

pack.a:                                           ; preds = %done32, %gl.done12
  %i30 = phi i64 [ 0, %gl.done12 ], [ %154, %done32 ]
  %141 = icmp slt i64 %i30, 16
  br i1 %141, label %body28, label %done29

body28:                                           ; preds = %pack.a
  br label %pack.ak

done29:                                           ; preds = %pack.a
  br label %pack.b

pack.ak:                                          ; preds = %body31, %body28
  %i33 = phi i64 [ 0, %body28 ], [ %153, %body31 ]
  %142 = icmp slt i64 %i33, 16
  br i1 %142, label %body31, label %done32

body31:                                           ; preds = %pack.ak
  %143 = mul i64 %i30, 16
  %144 = add i64 %143, %i33
  %145 = mul i64 %i30, 16
  %146 = add i64 %145, %i33
  %147 = getelementptr i16, ptr %a, i64 %144
  %148 = load i16, ptr %147, align 2
  %149 = zext i16 %148 to i32
  %150 = shl i32 %149, 16
  %151 = bitcast i32 %150 to float
  %152 = getelementptr float, ptr %mma.a, i64 %146
  store float %151, ptr %152, align 4
  %153 = add i64 %i33, 1
  br label %pack.ak

done32:                                           ; preds = %pack.ak
  %154 = add i64 %i30, 1
  br label %pack.a

pack.b:                                           ; preds = %done38, %done29
  %i36 = phi i64 [ 0, %done29 ], [ %176, %done38 ]
  %155 = icmp slt i64 %i36, 16
  br i1 %155, label %body34, label %done35

body34:                                           ; preds = %pack.b
  br label %pack.bn

done35:                                           ; preds = %pack.b
  store i32 0, ptr %mk.any, align 4
  store i32 1, ptr %mk.all, align 4
  store i64 16, ptr %mk.first, align 8
  br label %mk.zrows

pack.bn:                                          ; preds = %body37, %body34
  %i39 = phi i64 [ 0, %body34 ], [ %175, %body37 ]
  %156 = icmp slt i64 %i39, 16
  br i1 %156, label %body37, label %done38

body37:                                           ; preds = %pack.bn
  %157 = mul i64 %i39, 16
  %158 = add i64 %157, %i36
  %159 = udiv i64 %i39, 32
  %160 = urem i64 %i39, 32
  %161 = mul i64 %159, 32
  %162 = sub i64 16, %161
  %163 = icmp slt i64 %162, 32
  %164 = select i1 %163, i64 %162, i64 32
  %165 = mul i64 %159, 512
  %166 = mul i64 %i36, %164
  %167 = add i64 %166, %160
  %168 = add i64 %165, %167
  %169 = getelementptr i16, ptr %b, i64 %158
  %170 = load i16, ptr %169, align 2
  %171 = zext i16 %170 to i32
  %172 = shl i32 %171, 16
  %173 = bitcast i32 %172 to float
  %174 = getelementptr float, ptr %mma.b, i64 %168
  store float %173, ptr %174, align 4
  %175 = add i64 %i39, 1
  br label %pack.bn

done38:                                           ; preds = %pack.bn
  %176 = add i64 %i36, 1
  br label %pack.b

mk.zrows:                                         ; preds = %mk.done41, %done35
  %177 = phi i64 [ 0, %done35 ], [ %208, %mk.done41 ]
  %178 = icmp slt i64 %177, 8
  br i1 %178, label %mk.body, label %mk.done

mk.body:                                          ; preds = %mk.zrows
  %179 = sub i64 7, %177
  %180 = mul i64 %179, 32
  store i32 0, ptr %mk.orv, align 4
  br label %mk.or

mk.done:                                          ; preds = %mk.zrows
  %181 = load i32, ptr %mk.any, align 4
  %182 = icmp ne i32 %181, 0
  %183 = load i32, ptr %mk.all, align 4
  %184 = icmp ne i32 %183, 0
  %185 = load i64, ptr %mk.first, align 8
  store i32 0, ptr %mk.bbad, align 4
  %186 = select i1 %182, i64 %185, i64 -1
  br label %mk.pass

mk.or:                                            ; preds = %mk.body40, %mk.body
  %187 = phi i64 [ 0, %mk.body ], [ %195, %mk.body40 ]
  %188 = icmp slt i64 %187, 32
  br i1 %188, label %mk.body40, label %mk.done41

mk.body40:                                        ; preds = %mk.or
  %189 = add i64 %180, %187
  %190 = getelementptr i32, ptr %mma.a, i64 %189
  %191 = load i32, ptr %190, align 4
  %192 = and i32 %191, 2147483647
  %193 = load i32, ptr %mk.orv, align 4
  %194 = or i32 %193, %192
  store i32 %194, ptr %mk.orv, align 4
  %195 = add i64 %187, 1
  br label %mk.or

mk.done41:                                        ; preds = %mk.or
  %196 = load i32, ptr %mk.orv, align 4
  %197 = icmp eq i32 %196, 0
  %198 = zext i1 %197 to i32
  %199 = getelementptr i8, ptr %mk.skip, i64 %179
  %200 = trunc i32 %198 to i8
  store i8 %200, ptr %199, align 1
  %201 = load i32, ptr %mk.any, align 4
  %202 = or i32 %201, %198
  store i32 %202, ptr %mk.any, align 4
  %203 = load i32, ptr %mk.all, align 4
  %204 = and i32 %203, %198
  store i32 %204, ptr %mk.all, align 4
  %205 = load i64, ptr %mk.first, align 8
  %206 = mul i64 %179, 2
  %207 = select i1 %197, i64 %205, i64 %206
  store i64 %207, ptr %mk.first, align 8
  %208 = add i64 %177, 1
  br label %mk.zrows

mk.pass:                                          ; preds = %mk.passdone, %mk.done
  %209 = phi i64 [ 0, %mk.done ], [ %250, %mk.passdone ]
  %210 = icmp slt i64 %209, 2
  br i1 %210, label %mk.body42, label %mk.done43

mk.body42:                                        ; preds = %mk.pass
  %211 = trunc i64 %209 to i8
  %212 = load i32, ptr %mk.bbad, align 4
  %213 = icmp ne i32 %212, 0
  %214 = or i1 %184, %213
  %215 = and i1 %182, %214
  %216 = icmp eq i64 %209, 0
  %217 = or i1 %216, %215
  br i1 %217, label %mk.passrun, label %mk.passdone

mk.done43:                                        ; preds = %mk.pass
  %218 = getelementptr i64, ptr %1, i64 0
  %219 = load i64, ptr %218, align 8
  %220 = mul i64 1, %219
  %221 = add i64 0, %220
  %222 = getelementptr i64, ptr %1, i64 2
  %223 = load i64, ptr %222, align 8
  %224 = mul i64 1, %223
  %225 = add i64 0, %224
  %226 = sext i32 %3 to i64
  %227 = icmp slt i64 %226, 1099511627776
  %228 = select i1 %227, i64 %226, i64 1099511627776
  %229 = icmp sgt i64 %228, -1099511627776
  %230 = select i1 %229, i64 %228, i64 -1099511627776
  %231 = mul i64 %230, 16
  %232 = sext i32 %2 to i64
  %233 = icmp slt i64 %232, 1099511627776
  %234 = select i1 %233, i64 %232, i64 1099511627776
  %235 = icmp sgt i64 %234, -1099511627776
  %236 = select i1 %235, i64 %234, i64 -1099511627776
  %237 = mul i64 %236, 16
  %238 = icmp sge i64 %231, 0
  %239 = and i1 true, %238
  %240 = icmp sge i64 %237, 0
  %241 = and i1 %239, %240
  %242 = add i64 %231, 16
  %243 = add i64 %237, 16
  %244 = icmp sle i64 %242, %221
  %245 = and i1 %241, %244
  %246 = icmp sle i64 %243, %225
  %247 = and i1 %245, %246
  br i1 %247, label %gl.inside75, label %gl.edge76

mk.passrun:                                       ; preds = %mk.body42
  %248 = icmp eq i64 %209, 0
  %249 = select i1 %248, i64 %186, i64 -1
  br label %mk.i

mk.passdone:                                      ; preds = %mk.done56, %mk.body42
  %250 = add i64 %209, 1
  br label %mk.pass

mk.i:                                             ; preds = %mk.next, %mk.passrun
  %251 = phi i64 [ 0, %mk.passrun ], [ %258, %mk.next ]
  %252 = icmp slt i64 %251, 16
  br i1 %252, label %mk.body44, label %mk.done45

mk.body44:                                        ; preds = %mk.i
  %253 = sdiv i64 %251, 2
  %254 = getelementptr i8, ptr %mk.skip, i64 %253
  %255 = load i8, ptr %254, align 1
  %256 = icmp eq i8 %255, %211
  br i1 %256, label %mk.work, label %mk.next

mk.done45:                                        ; preds = %mk.i
  br label %mk.i54

mk.work:                                          ; preds = %mk.body44
  %257 = icmp eq i64 %251, %249
  br i1 %257, label %mk.checking, label %mk.plain

mk.next:                                          ; preds = %mk.blockdone, %mk.body44
  %258 = add i64 %251, 2
  br label %mk.i

mk.checking:                                      ; preds = %mk.work
  %259 = add i64 %251, 0
  %260 = mul i64 %259, 16
  %261 = add i64 %260, 0
  %262 = getelementptr float, ptr %acc, i64 %261
  %263 = load <8 x float>, ptr %262, align 4
  %264 = add i64 %251, 1
  %265 = mul i64 %264, 16
  %266 = add i64 %265, 0
  %267 = getelementptr float, ptr %acc, i64 %266
  %268 = load <8 x float>, ptr %267, align 4
  br label %mk.k

mk.plain:                                         ; preds = %mk.work
  %269 = add i64 %251, 0
  %270 = mul i64 %269, 16
  %271 = add i64 %270, 0
  %272 = getelementptr float, ptr %acc, i64 %271
  %273 = load <8 x float>, ptr %272, align 4
  %274 = add i64 %251, 1
  %275 = mul i64 %274, 16
  %276 = add i64 %275, 0
  %277 = getelementptr float, ptr %acc, i64 %276
  %278 = load <8 x float>, ptr %277, align 4
  br label %mk.k48

mk.blockdone:                                     ; preds = %mk.kdone50, %mk.kdone
  br label %mk.next

mk.k:                                             ; preds = %mk.kbody, %mk.checking
  %k = phi i64 [ 0, %mk.checking ], [ %305, %mk.kbody ]
  %acc46 = phi <8 x float> [ %263, %mk.checking ], [ %296, %mk.kbody ]
  %acc47 = phi <8 x float> [ %268, %mk.checking ], [ %304, %mk.kbody ]
  %nonfinite = phi <8 x i1> [ zeroinitializer, %mk.checking ], [ %288, %mk.kbody ]
  %279 = icmp slt i64 %k, 16
  br i1 %279, label %mk.kbody, label %mk.kdone

mk.kbody:                                         ; preds = %mk.k
  %280 = mul i64 %k, 16
  %281 = add i64 %280, 0
  %282 = add i64 0, %281
  %283 = getelementptr float, ptr %mma.b, i64 %282
  %284 = load <8 x float>, ptr %283, align 4
  %285 = bitcast <8 x float> %284 to <8 x i32>
  %286 = and <8 x i32> %285, splat (i32 2139095040)
  %287 = icmp eq <8 x i32> %286, splat (i32 2139095040)
  %288 = or <8 x i1> %nonfinite, %287
  %289 = add i64 %251, 0
  %290 = mul i64 %289, 16
  %291 = add i64 %290, %k
  %292 = getelementptr float, ptr %mma.a, i64 %291
  %293 = load float, ptr %292, align 4
  %294 = insertelement <8 x float> poison, float %293, i32 0
  %295 = shufflevector <8 x float> %294, <8 x float> poison, <8 x i32> zeroinitializer
  %296 = call <8 x float> @llvm.fma.v8f32(<8 x float> %295, <8 x float> %284, <8 x float> %acc46)
  %297 = add i64 %251, 1
  %298 = mul i64 %297, 16
  %299 = add i64 %298, %k
  %300 = getelementptr float, ptr %mma.a, i64 %299
  %301 = load float, ptr %300, align 4
  %302 = insertelement <8 x float> poison, float %301, i32 0
  %303 = shufflevector <8 x float> %302, <8 x float> poison, <8 x i32> zeroinitializer
  %304 = call <8 x float> @llvm.fma.v8f32(<8 x float> %303, <8 x float> %284, <8 x float> %acc47)
  %305 = add i64 %k, 1
  br label %mk.k

mk.kdone:                                         ; preds = %mk.k
  %306 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite)
  %307 = load i32, ptr %mk.bbad, align 4
  %308 = zext i1 %306 to i32
  %309 = or i32 %307, %308
  store i32 %309, ptr %mk.bbad, align 4
  %310 = add i64 %251, 0
  %311 = mul i64 %310, 16
  %312 = add i64 %311, 0
  %313 = getelementptr float, ptr %acc, i64 %312
  store <8 x float> %acc46, ptr %313, align 4
  %314 = add i64 %251, 1
  %315 = mul i64 %314, 16
  %316 = add i64 %315, 0
  %317 = getelementptr float, ptr %acc, i64 %316
  store <8 x float> %acc47, ptr %317, align 4
  br label %mk.blockdone

mk.k48:                                           ; preds = %mk.kbody49, %mk.plain
  %k51 = phi i64 [ 0, %mk.plain ], [ %340, %mk.kbody49 ]
  %acc52 = phi <8 x float> [ %273, %mk.plain ], [ %331, %mk.kbody49 ]
  %acc53 = phi <8 x float> [ %278, %mk.plain ], [ %339, %mk.kbody49 ]
  %318 = icmp slt i64 %k51, 16
  br i1 %318, label %mk.kbody49, label %mk.kdone50

mk.kbody49:                                       ; preds = %mk.k48
  %319 = mul i64 %k51, 16
  %320 = add i64 %319, 0
  %321 = add i64 0, %320
  %322 = getelementptr float, ptr %mma.b, i64 %321
  %323 = load <8 x float>, ptr %322, align 4
  %324 = add i64 %251, 0
  %325 = mul i64 %324, 16
  %326 = add i64 %325, %k51
  %327 = getelementptr float, ptr %mma.a, i64 %326
  %328 = load float, ptr %327, align 4
  %329 = insertelement <8 x float> poison, float %328, i32 0
  %330 = shufflevector <8 x float> %329, <8 x float> poison, <8 x i32> zeroinitializer
  %331 = call <8 x float> @llvm.fma.v8f32(<8 x float> %330, <8 x float> %323, <8 x float> %acc52)
  %332 = add i64 %251, 1
  %333 = mul i64 %332, 16
  %334 = add i64 %333, %k51
  %335 = getelementptr float, ptr %mma.a, i64 %334
  %336 = load float, ptr %335, align 4
  %337 = insertelement <8 x float> poison, float %336, i32 0
  %338 = shufflevector <8 x float> %337, <8 x float> poison, <8 x i32> zeroinitializer
  %339 = call <8 x float> @llvm.fma.v8f32(<8 x float> %338, <8 x float> %323, <8 x float> %acc53)
  %340 = add i64 %k51, 1
  br label %mk.k48

mk.kdone50:                                       ; preds = %mk.k48
  %341 = add i64 %251, 0
  %342 = mul i64 %341, 16
  %343 = add i64 %342, 0
  %344 = getelementptr float, ptr %acc, i64 %343
  store <8 x float> %acc52, ptr %344, align 4
  %345 = add i64 %251, 1
  %346 = mul i64 %345, 16
  %347 = add i64 %346, 0
  %348 = getelementptr float, ptr %acc, i64 %347
  store <8 x float> %acc53, ptr %348, align 4
  br label %mk.blockdone

mk.i54:                                           ; preds = %mk.next58, %mk.done45
  %349 = phi i64 [ 0, %mk.done45 ], [ %356, %mk.next58 ]
  %350 = icmp slt i64 %349, 16
  br i1 %350, label %mk.body55, label %mk.done56

mk.body55:                                        ; preds = %mk.i54
  %351 = sdiv i64 %349, 2
  %352 = getelementptr i8, ptr %mk.skip, i64 %351
  %353 = load i8, ptr %352, align 1
  %354 = icmp eq i8 %353, %211
  br i1 %354, label %mk.work57, label %mk.next58

mk.done56:                                        ; preds = %mk.i54
  br label %mk.passdone

mk.work57:                                        ; preds = %mk.body55
  %355 = icmp eq i64 %349, %249
  br i1 %355, label %mk.checking59, label %mk.plain60

mk.next58:                                        ; preds = %mk.blockdone61, %mk.body55
  %356 = add i64 %349, 2
  br label %mk.i54

mk.checking59:                                    ; preds = %mk.work57
  %357 = add i64 %349, 0
  %358 = mul i64 %357, 16
  %359 = add i64 %358, 8
  %360 = getelementptr float, ptr %acc, i64 %359
  %361 = load <8 x float>, ptr %360, align 4
  %362 = add i64 %349, 1
  %363 = mul i64 %362, 16
  %364 = add i64 %363, 8
  %365 = getelementptr float, ptr %acc, i64 %364
  %366 = load <8 x float>, ptr %365, align 4
  br label %mk.k62

mk.plain60:                                       ; preds = %mk.work57
  %367 = add i64 %349, 0
  %368 = mul i64 %367, 16
  %369 = add i64 %368, 8
  %370 = getelementptr float, ptr %acc, i64 %369
  %371 = load <8 x float>, ptr %370, align 4
  %372 = add i64 %349, 1
  %373 = mul i64 %372, 16
  %374 = add i64 %373, 8
  %375 = getelementptr float, ptr %acc, i64 %374
  %376 = load <8 x float>, ptr %375, align 4
  br label %mk.k69

mk.blockdone61:                                   ; preds = %mk.kdone71, %mk.kdone64
  br label %mk.next58

mk.k62:                                           ; preds = %mk.kbody63, %mk.checking59
  %k65 = phi i64 [ 0, %mk.checking59 ], [ %403, %mk.kbody63 ]
  %acc66 = phi <8 x float> [ %361, %mk.checking59 ], [ %394, %mk.kbody63 ]
  %acc67 = phi <8 x float> [ %366, %mk.checking59 ], [ %402, %mk.kbody63 ]
  %nonfinite68 = phi <8 x i1> [ zeroinitializer, %mk.checking59 ], [ %386, %mk.kbody63 ]
  %377 = icmp slt i64 %k65, 16
  br i1 %377, label %mk.kbody63, label %mk.kdone64

mk.kbody63:                                       ; preds = %mk.k62
  %378 = mul i64 %k65, 16
  %379 = add i64 %378, 8
  %380 = add i64 0, %379
  %381 = getelementptr float, ptr %mma.b, i64 %380
  %382 = load <8 x float>, ptr %381, align 4
  %383 = bitcast <8 x float> %382 to <8 x i32>
  %384 = and <8 x i32> %383, splat (i32 2139095040)
  %385 = icmp eq <8 x i32> %384, splat (i32 2139095040)
  %386 = or <8 x i1> %nonfinite68, %385
  %387 = add i64 %349, 0
  %388 = mul i64 %387, 16
  %389 = add i64 %388, %k65
  %390 = getelementptr float, ptr %mma.a, i64 %389
  %391 = load float, ptr %390, align 4
  %392 = insertelement <8 x float> poison, float %391, i32 0
  %393 = shufflevector <8 x float> %392, <8 x float> poison, <8 x i32> zeroinitializer
  %394 = call <8 x float> @llvm.fma.v8f32(<8 x float> %393, <8 x float> %382, <8 x float> %acc66)
  %395 = add i64 %349, 1
  %396 = mul i64 %395, 16
  %397 = add i64 %396, %k65
  %398 = getelementptr float, ptr %mma.a, i64 %397
  %399 = load float, ptr %398, align 4
  %400 = insertelement <8 x float> poison, float %399, i32 0
  %401 = shufflevector <8 x float> %400, <8 x float> poison, <8 x i32> zeroinitializer
  %402 = call <8 x float> @llvm.fma.v8f32(<8 x float> %401, <8 x float> %382, <8 x float> %acc67)
  %403 = add i64 %k65, 1
  br label %mk.k62

mk.kdone64:                                       ; preds = %mk.k62
  %404 = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %nonfinite68)
  %405 = load i32, ptr %mk.bbad, align 4
  %406 = zext i1 %404 to i32
  %407 = or i32 %405, %406
  store i32 %407, ptr %mk.bbad, align 4
  %408 = add i64 %349, 0
  %409 = mul i64 %408, 16
  %410 = add i64 %409, 8
  %411 = getelementptr float, ptr %acc, i64 %410
  store <8 x float> %acc66, ptr %411, align 4
  %412 = add i64 %349, 1
  %413 = mul i64 %412, 16
  %414 = add i64 %413, 8
  %415 = getelementptr float, ptr %acc, i64 %414
  store <8 x float> %acc67, ptr %415, align 4
  br label %mk.blockdone61

mk.k69:                                           ; preds = %mk.kbody70, %mk.plain60
  %k72 = phi i64 [ 0, %mk.plain60 ], [ %438, %mk.kbody70 ]
  %acc73 = phi <8 x float> [ %371, %mk.plain60 ], [ %429, %mk.kbody70 ]
  %acc74 = phi <8 x float> [ %376, %mk.plain60 ], [ %437, %mk.kbody70 ]
  %416 = icmp slt i64 %k72, 16
  br i1 %416, label %mk.kbody70, label %mk.kdone71

mk.kbody70:                                       ; preds = %mk.k69
  %417 = mul i64 %k72, 16
  %418 = add i64 %417, 8
  %419 = add i64 0, %418
  %420 = getelementptr float, ptr %mma.b, i64 %419
  %421 = load <8 x float>, ptr %420, align 4
  %422 = add i64 %349, 0
  %423 = mul i64 %422, 16
  %424 = add i64 %423, %k72
  %425 = getelementptr float, ptr %mma.a, i64 %424
  %426 = load float, ptr %425, align 4
  %427 = insertelement <8 x float> poison, float %426, i32 0
  %428 = shufflevector <8 x float> %427, <8 x float> poison, <8 x i32> zeroinitializer
  %429 = call <8 x float> @llvm.fma.v8f32(<8 x float> %428, <8 x float> %421, <8 x float> %acc73)
  %430 = add i64 %349, 1
  %431 = mul i64 %430, 16
  %432 = add i64 %431, %k72
  %433 = getelementptr float, ptr %mma.a, i64 %432
  %434 = load float, ptr %433, align 4
  %435 = insertelement <8 x float> poison, float %434, i32 0
  %436 = shufflevector <8 x float> %435, <8 x float> poison, <8 x i32> zeroinitializer
  %437 = call <8 x float> @llvm.fma.v8f32(<8 x float> %436, <8 x float> %421, <8 x float> %acc74)
  %438 = add i64 %k72, 1
  br label %mk.k69

mk.kdone71:                                       ; preds = %mk.k69
  %439 = add i64 %349, 0
  %440 = mul i64 %439, 16
  %441 = add i64 %440, 8
  %442 = getelementptr float, ptr %acc, i64 %441
  store <8 x float> %acc73, ptr %442, align 4
  %443 = add i64 %349, 1
  %444 = mul i64 %443, 16
  %445 = add i64 %444, 8
  %446 = getelementptr float, ptr %acc, i64 %445
  store <8 x float> %acc74, ptr %446, align 4
  br label %mk.blockdone61

gl.inside75:                                      ; preds = %mk.done43
  %447 = mul i64 0, %221
  %448 = add i64 %447, %231
  br label %in.row78

gl.edge76:                                        ; preds = %mk.done43
  br label %gl.row82

gl.done77:                                        ; preds = %done84, %done80
  ret void

in.row78:                                         ; preds = %body79, %gl.inside75
  %i81 = phi i64 [ 0, %gl.inside75 ], [ %459, %body79 ]
  %449 = icmp slt i64 %i81, 16
  br i1 %449, label %body79, label %done80

body79:                                           ; preds = %in.row78
  %450 = add i64 %448, %i81
  %451 = mul i64 %450, %225
  %452 = add i64 %451, %237
  %453 = mul i64 %i81, 16
  %454 = add i64 %453, 0
  %455 = add i64 %452, 0
  %456 = getelementptr float, ptr %acc, i64 %454
  %457 = getelementptr float, ptr %C, i64 %455
  %458 = load <16 x float>, ptr %456, align 4
  store <16 x float> %458, ptr %457, align 4
  %459 = add i64 %i81, 1
  br label %in.row78

done80:                                           ; preds = %in.row78
  br label %gl.done77

gl.row82:                                         ; preds = %done88, %gl.edge76
  %i85 = phi i64 [ 0, %gl.edge76 ], [ %487, %done88 ]
  %460 = icmp slt i64 %i85, 16
  br i1 %460, label %body83, label %done84

body83:                                           ; preds = %gl.row82
  %461 = add i64 %231, %i85
  %462 = icmp slt i64 %461, %221
  %463 = icmp sge i64 %461, 0
  %464 = and i1 %463, %462
  %465 = and i1 true, %464
  %466 = mul i64 0, %221
  %467 = add i64 %466, %461
  %468 = mul i64 %467, %225
  %469 = sub i64 0, %237
  %470 = icmp sgt i64 %469, 0
  %471 = select i1 %470, i64 %469, i64 0
  %472 = sub i64 %225, %237
  %473 = icmp slt i64 %472, 16
  %474 = select i1 %473, i64 %472, i64 16
  %475 = select i1 %465, i64 %474, i64 0
  %476 = sub i64 %475, %471
  br label %gl.col86

done84:                                           ; preds = %gl.row82
  br label %gl.done77

gl.col86:                                         ; preds = %body87, %body83
  %i89 = phi i64 [ 0, %body83 ], [ %486, %body87 ]
  %477 = icmp slt i64 %i89, %476
  br i1 %477, label %body87, label %done88

body87:                                           ; preds = %gl.col86
  %478 = add i64 %i89, %471
  %479 = mul i64 %i85, 16
  %480 = add i64 %479, %478
  %481 = add i64 %237, %478
  %482 = add i64 %468, %481
  %483 = getelementptr float, ptr %acc, i64 %480
  %484 = load float, ptr %483, align 4
  %485 = getelementptr float, ptr %C, i64 %482
  store float %484, ptr %485, align 4
  %486 = add i64 %i89, 1
  br label %gl.col86

done88:                                           ; preds = %gl.col86
  %487 = add i64 %i85, 1
  br label %gl.row82
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #0

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>) #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare i1 @llvm.vector.reduce.or.v8i1(<8 x i1>) #2

attributes #0 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #1 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
