// The double delay-slot hardware test of spec/vp1.md §2.5 and §14.1 (envytools hwtest/vp1.cc,
// MIT): words 0-1 branch twice, words 2-9 never run, only word 0x40 of the first target runs,
// every word of the second target runs. Expected: $r0 unchanged, $r1 = 0x40, $r2 = 0x87.
        bra 0x40
        bra 0x80
        mov $r0 0x2
        mov $r0 0x3
        mov $r0 0x4
        mov $r0 0x5
        mov $r0 0x6
        mov $r0 0x7
        mov $r0 0x8
        mov $r0 0x9
        exit 0x0
.align 0x40
        mov $r1 0x40
        mov $r1 0x41
        mov $r1 0x42
        mov $r1 0x43
        mov $r1 0x44
        mov $r1 0x45
        mov $r1 0x46
        mov $r1 0x47
        exit 0x1
.align 0x80
        mov $r2 0x80
        mov $r2 0x81
        mov $r2 0x82
        mov $r2 0x83
        mov $r2 0x84
        mov $r2 0x85
        mov $r2 0x86
        mov $r2 0x87
        exit 0x2
