(module
  ;; The container byte loop of root-scanner.ts and item-splitter.ts in WebAssembly
  ;; (container-scan.ts): about three times the speed of the same loop in JavaScript on the 1 GB
  ;; benchmark file (0.47 vs 1.3-1.5 s).
  ;; Build: `npx tsx scripts/mrf/build-container-scan.ts` writes container-scan-wasm.ts; a test checks
  ;; that the committed bytes are this file's.
  ;; memory: bytes 0-255 the class of each byte value (0 plain, 1 quote, 2 opening and 3 closing
  ;; bracket), then the chunk from offset 256 (container-scan.ts grows the memory to hold it)
  (memory (export "memory") 1)
  (data (i32.const 34) "\01")
  (data (i32.const 91) "\02")
  (data (i32.const 123) "\02")
  (data (i32.const 93) "\03")
  (data (i32.const 125) "\03")
  (global $depth (export "depth") (mut i32) (i32.const 0))
  (global $inStr (export "inStr") (mut i32) (i32.const 0))
  (global $esc (export "esc") (mut i32) (i32.const 0))
  ;; the last byte other than whitespace of the stream before this chunk (container-scan.ts tail):
  ;; what a '{' at the chunk's start follows
  (global $last (export "last") (mut i32) (i32.const 44))
  ;; a '{' at the end of the bytes scanned last follows a value and waits for its next byte (a
  ;; key's quote or '}' makes it an object; anything else a stray byte): counted in the depth
  ;; until the next scan tells
  (global $pend (export "pend") (mut i32) (i32.const 0))
  ;; the deepest nesting an opening bracket reached since the caller last reset it (root-scanner.ts
  ;; rejects an element nested past its limit before any parser recurses into it)
  (global $maxDepth (export "maxDepth") (mut i32) (i32.const 0))
  ;; JSON whitespace
  (func $ws (param $c i32) (result i32)
    (i32.or
      (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
      (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9)))))
  ;; what the '{' at $p is: 0 an object, 1 a stray byte, 2 not known before $end. A '{' opens a
  ;; value, so it follows ':', ',' or '['; one that follows anything else (a digit of a number it
  ;; cut in two, a string, a bracket) and is not followed by a key's quote or '}' cannot open an
  ;; object: it is a stray byte, which must not count, or its bracket would hold every element up
  ;; to a bracket that happens to balance it. A stray byte right before or right after a real
  ;; '{' leaves one of the two tests true, so that '{' still counts.
  (func $brace (param $p i32) (param $end i32) (result i32)
    (local $q i32) (local $c i32)
    (local.set $q (local.get $p))
    (block $found
      (loop $back
        (local.set $q (i32.sub (local.get $q) (i32.const 1)))
        (if (i32.lt_u (local.get $q) (i32.const 256)) (then
          (local.set $c (global.get $last))
          (br $found)))
        (local.set $c (i32.load8_u (local.get $q)))
        (br_if $back (call $ws (local.get $c)))))
    (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 58)) (i32.eq (local.get $c) (i32.const 44)))
          (i32.eq (local.get $c) (i32.const 91)))
      (then (return (i32.const 0))))
    (local.set $q (local.get $p))
    (loop $ahead
      (local.set $q (i32.add (local.get $q) (i32.const 1)))
      (if (i32.ge_u (local.get $q) (local.get $end)) (then (return (i32.const 2))))
      (local.set $c (i32.load8_u (local.get $q)))
      (br_if $ahead (call $ws (local.get $c))))
    (call $stray (local.get $c)))
  ;; 1 when the byte after a '{' that follows a value is neither a key's quote nor '}', else 0
  (func $stray (param $c i32) (result i32)
    (i32.and (i32.ne (local.get $c) (i32.const 34)) (i32.ne (local.get $c) (i32.const 125))))
  ;; scan(i, n, d, stop): the bytes [i, n) of the chunk (offsets in the chunk), outside a string,
  ;; inside containers open d levels deep; returns the offset after the bracket that brings the
  ;; depth down to stop, or -1 at the chunk end with the globals depth, inStr (inside a string) and
  ;; esc (the string's next byte is escaped) set for the next chunk. A '{' that is a stray byte
  ;; ($brace) does not count.
  (func (export "scan") (param $i i32) (param $n i32) (param $d i32) (param $stop i32) (result i32)
    (local $p i32) (local $end i32) (local $k i32) (local $c i32) (local $j i32)
    (local.set $p (i32.add (local.get $i) (i32.const 256)))
    (local.set $end (i32.add (local.get $n) (i32.const 256)))
    (if (global.get $pend) (then
      ;; the '{' the last scan ended after is told by its next byte other than whitespace
      (local.set $j (local.get $p))
      (block $told
        (loop $skip
          (br_if $told (i32.ge_u (local.get $j) (local.get $end)))
          (local.set $c (i32.load8_u (local.get $j)))
          (if (call $ws (local.get $c)) (then
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $skip)))
          (global.set $pend (i32.const 0))
          (if (call $stray (local.get $c))
            (then (local.set $d (i32.sub (local.get $d) (i32.const 1))))
            (else (if (i32.gt_s (local.get $d) (global.get $maxDepth)) (then
              (global.set $maxDepth (local.get $d))))))))))
    (block $chunkEnd
      (loop $next
        (br_if $chunkEnd (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $k (i32.load8_u (i32.load8_u (local.get $p))))
        (if (i32.eqz (local.get $k)) (then
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $next)))
        (if (i32.eq (local.get $k) (i32.const 1)) (then
          ;; a string: to its closing quote, escapes skipped
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (block $closed
            (loop $str
              (if (i32.ge_u (local.get $p) (local.get $end)) (then
                (global.set $depth (local.get $d))
                (global.set $inStr (i32.const 1))
                (global.set $esc (i32.const 0))
                (return (i32.const -1))))
              (local.set $c (i32.load8_u (local.get $p)))
              (br_if $closed (i32.eq (local.get $c) (i32.const 34)))
              (if (i32.eq (local.get $c) (i32.const 92)) (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (if (i32.ge_u (local.get $p) (local.get $end)) (then
                  (global.set $depth (local.get $d))
                  (global.set $inStr (i32.const 1))
                  (global.set $esc (i32.const 1))
                  (return (i32.const -1))))))
              (local.set $p (i32.add (local.get $p) (i32.const 1)))
              (br $str)))
          (local.set $p (i32.add (local.get $p) (i32.const 1)))
          (br $next)))
        (if (i32.eq (local.get $k) (i32.const 2))
          (then
            (local.set $j (i32.const 0))
            (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 123)) (then
              (local.set $j (call $brace (local.get $p) (local.get $end)))))
            (if (i32.ne (local.get $j) (i32.const 1)) (then
              (local.set $d (i32.add (local.get $d) (i32.const 1)))
              (if (i32.eq (local.get $j) (i32.const 2))
                (then (global.set $pend (i32.const 1)))
                (else (if (i32.gt_s (local.get $d) (global.get $maxDepth)) (then
                  (global.set $maxDepth (local.get $d)))))))))
          (else
            (local.set $d (i32.sub (local.get $d) (i32.const 1)))
            (if (i32.eq (local.get $d) (local.get $stop)) (then
              (return (i32.sub (i32.add (local.get $p) (i32.const 1)) (i32.const 256)))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (global.set $depth (local.get $d))
    (global.set $inStr (i32.const 0))
    (global.set $esc (i32.const 0))
    (i32.const -1))
)
