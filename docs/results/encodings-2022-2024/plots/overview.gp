# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1362,417 font "sans,11" noenhanced
} else {
  set terminal svg size 1362,417 font "sans,11" noenhanced background "#ffffff"
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
set ytics ("xpos (causal=true)" 0, "fire" 1, "kerple_power" 2, "kerple_log" 3)
# band 1: order .. periodic
unset label
unset arrow
unset object
set lmargin at screen 0.1284875184; set rmargin at screen 0.8751835536; set bmargin at screen 0.3045563549; set tmargin at screen 0.7458033573
set xrange [-0.5:8.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9472422062 center font ",13"
set colorbox user origin screen 0.8898678414, screen 0.3045563549 size screen 0.01762114537, screen 0.4412470024
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.1284875184, screen 0.0479616307 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (8-32)" 0, "2x (64)" 1, "4x (128)" 2, "train (16-64)" 3, "2x (128)" 4, "4x (256)" 5, "train (16-64)" 6, "2x (128)" 7, "4x (256)" 8)
set label 3 "order" at first 1, screen 0.8561151079 center font ",11"
set label 4 "shift" at first 4, screen 0.8561151079 center font ",11"
set arrow from 2.5, graph 0 to 2.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "periodic" at first 7, screen 0.8561151079 center font ",11"
set arrow from 5.5, graph 0 to 5.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 6 "1.000\n[1.00, 1.00]" at 0,0 center front textcolor rgb "#ffffff" font ",10"
set label 7 "1.000\n[1.00, 1.00]" at 1,0 center front textcolor rgb "#ffffff" font ",10"
set label 8 "0.993\n[0.98, 1.00]" at 2,0 center front textcolor rgb "#ffffff" font ",10"
set label 9 "1.000\n[1.00, 1.00]" at 3,0 center front textcolor rgb "#ffffff" font ",10"
set label 10 "1.000\n[1.00, 1.00]" at 4,0 center front textcolor rgb "#ffffff" font ",10"
set label 11 "1.000\n[1.00, 1.00]" at 5,0 center front textcolor rgb "#ffffff" font ",10"
set label 12 "0.663\n[0.65, 0.67]" at 6,0 center front textcolor rgb "#ffffff" font ",10"
set label 13 "✗" at 6.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 7.5,-0.5 to 8.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 15 "not learned" at 8,0 center front textcolor rgb "#111111" font ",10"
set label 16 "1.000\n[1.00, 1.00]" at 0,1 center front textcolor rgb "#ffffff" font ",10"
set label 17 "1.000\n[1.00, 1.00]" at 1,1 center front textcolor rgb "#ffffff" font ",10"
set label 18 "1.000\n[1.00, 1.00]" at 2,1 center front textcolor rgb "#ffffff" font ",10"
set label 19 "0.931\n[0.81, 0.99]" at 3,1 center front textcolor rgb "#ffffff" font ",10"
set label 20 "✗" at 3.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 21 "0.673\n[0.61, 0.71]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 22 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 23 "0.587\n[0.56, 0.60]" at 5,1 center front textcolor rgb "#111111" font ",10"
set label 24 "✗" at 5.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set label 25 "0.620\n[0.61, 0.64]" at 6,1 center front textcolor rgb "#ffffff" font ",10"
set label 26 "✗" at 6.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 3 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set object 4 rect from 7.5,0.5 to 8.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 8,1 center front textcolor rgb "#111111" font ",10"
set label 29 "0.500\n[0.50, 0.50]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 30 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 5 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 31 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set label 33 "0.652\n[0.64, 0.66]" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 34 "✗" at 3.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 3.5,1.5 to 4.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 35 "not learned" at 4,2 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 36 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set label 37 "0.893\n[0.88, 0.91]" at 6,2 center front textcolor rgb "#ffffff" font ",10"
set label 38 "✗" at 6.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 9 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set object 10 rect from 7.5,1.5 to 8.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 40 "not learned" at 8,2 center front textcolor rgb "#111111" font ",10"
set label 41 "0.500\n[0.50, 0.50]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 42 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 11 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set label 45 "0.596\n[0.59, 0.60]" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 46 "✗" at 3.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 3.5,2.5 to 4.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 47 "not learned" at 4,3 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 48 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set label 49 "0.856\n[0.84, 0.87]" at 6,3 center front textcolor rgb "#ffffff" font ",10"
set label 50 "✗" at 6.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 15 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 51 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
set object 16 rect from 7.5,2.5 to 8.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 52 "not learned" at 8,3 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
