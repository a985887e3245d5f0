# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1200,417 font "sans,11" noenhanced
} else {
  set terminal svg size 1200,417 font "sans,11" noenhanced background "#ffffff"
}
set output "overview." . format
set multiplot
set yrange [3.5:-0.5]
set cbrange [0:1]
set palette defined (0 "#f7fbff", 0.35 "#9ecae1", 0.7 "#3182bd", 1 "#08306b")
set cblabel "score: 0 = chance (or the commonest answer),\n1 = accuracy 1" offset -0.5,0
set cbtics 0,0.25
unset key
set tics scale 0
set tics front
unset xtics
set ytics ("rope" 0, "alibi" 1, "fire" 2, "none" 3)
# band 1: periodic .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.08333333333; set rmargin at screen 0.8583333333; set bmargin at screen 0.3045563549; set tmargin at screen 0.7458033573
set xrange [-0.5:2.5]
set label 1 "Overview: final accuracy, mean over 1 seed; rows ordered by how far they generalise" at screen 0.5, screen 0.9472422062 center font ",13"
set colorbox user origin screen 0.875, screen 0.3045563549 size screen 0.02, screen 0.4412470024
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.08333333333, screen 0.0479616307 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (16-64)" 0, "2x (128)" 1, "4x (256)" 2)
set label 3 "periodic" at first 1, screen 0.8561151079 center font ",11"
set label 4 "0.898" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 5 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,-0.5 to 1.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 6 "not learned" at 1,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,-0.5 to 2.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 7 "not learned" at 2,0 center front textcolor rgb "#111111" font ",10"
set label 8 "0.816" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 9 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 0.5,0.5 to 1.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 10 "not learned" at 1,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 1.5,0.5 to 2.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 11 "not learned" at 2,1 center front textcolor rgb "#111111" font ",10"
set label 12 "0.734" at 0,2 center front textcolor rgb "#ffffff" font ",10"
set label 13 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 15 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 16 "0.351" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 17 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
