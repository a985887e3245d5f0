# overview.gp: overview of the study: final accuracy per series, task and length
# Written by ordo; edit freely and redraw with: gnuplot overview.gp (writes overview.png and overview.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1853,417 font "sans,11" noenhanced
} else {
  set terminal svg size 1853,417 font "sans,11" noenhanced background "#ffffff"
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
set ytics ("rope" 0, "alibi" 1, "learned" 2, "sinusoidal" 3)
# band 1: even_pairs .. stack_manipulation
unset label
unset arrow
unset object
set lmargin at screen 0.06206152186; set rmargin at screen 0.9082568807; set bmargin at screen 0.3045563549; set tmargin at screen 0.7458033573
set xrange [-0.5:7.5]
set label 1 "Overview: final accuracy, mean over 3 seeds [95% bootstrap interval]; rows ordered by how far they generalise" at screen 0.5, screen 0.9472422062 center font ",13"
set colorbox user origin screen 0.9190501889, screen 0.3045563549 size screen 0.01295196978, screen 0.4412470024
set label 2 "✗: not every seed reaches 0.99 on the training lengths (0.9 beyond them).   Grey, not learned: no seed learned the training lengths, so the longer ones say nothing" at screen 0.06206152186, screen 0.0479616307 left font ",10" textcolor rgb "#D55E00"
set x2tics ("train (1-40)" 0, "41" 1, "491" 2, "mean 41-491 (47 lengths)" 3, "train (1-40)" 4, "41" 5, "491" 6, "mean 41-491 (47 lengths)" 7)
set label 3 "even_pairs" at first 1.5, screen 0.8561151079 center font ",11"
set label 4 "stack_manipulation" at first 5.5, screen 0.8561151079 center font ",11"
set arrow from 3.5, graph 0 to 3.5, graph 1 nohead lc rgb "#ffffff" lw 5 front
set label 5 "0.663\n[0.57, 0.73]" at 0,0 center front textcolor rgb "#111111" font ",10"
set label 6 "✗" at 0.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 1 rect from 0.5,-0.5 to 1.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 7 "not learned" at 1,0 center front textcolor rgb "#111111" font ",10"
set object 2 rect from 1.5,-0.5 to 2.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 8 "not learned" at 2,0 center front textcolor rgb "#111111" font ",10"
set object 3 rect from 2.5,-0.5 to 3.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 9 "not learned" at 3,0 center front textcolor rgb "#111111" font ",10"
set label 10 "0.586\n[0.58, 0.59]" at 4,0 center front textcolor rgb "#111111" font ",10"
set label 11 "✗" at 4.45,-0.12 right front textcolor rgb "#D55E00" font ",12"
set object 4 rect from 4.5,-0.5 to 5.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 12 "not learned" at 5,0 center front textcolor rgb "#111111" font ",10"
set object 5 rect from 5.5,-0.5 to 6.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 13 "not learned" at 6,0 center front textcolor rgb "#111111" font ",10"
set object 6 rect from 6.5,-0.5 to 7.5,0.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 14 "not learned" at 7,0 center front textcolor rgb "#111111" font ",10"
set label 15 "0.507\n[0.49, 0.52]" at 0,1 center front textcolor rgb "#111111" font ",10"
set label 16 "✗" at 0.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 7 rect from 0.5,0.5 to 1.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 17 "not learned" at 1,1 center front textcolor rgb "#111111" font ",10"
set object 8 rect from 1.5,0.5 to 2.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 18 "not learned" at 2,1 center front textcolor rgb "#111111" font ",10"
set object 9 rect from 2.5,0.5 to 3.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 19 "not learned" at 3,1 center front textcolor rgb "#111111" font ",10"
set label 20 "0.643\n[0.63, 0.66]" at 4,1 center front textcolor rgb "#111111" font ",10"
set label 21 "✗" at 4.45,0.88 right front textcolor rgb "#D55E00" font ",12"
set object 10 rect from 4.5,0.5 to 5.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 22 "not learned" at 5,1 center front textcolor rgb "#111111" font ",10"
set object 11 rect from 5.5,0.5 to 6.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 23 "not learned" at 6,1 center front textcolor rgb "#111111" font ",10"
set object 12 rect from 6.5,0.5 to 7.5,1.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 24 "not learned" at 7,1 center front textcolor rgb "#111111" font ",10"
set label 25 "0.494\n[0.47, 0.51]" at 0,2 center front textcolor rgb "#111111" font ",10"
set label 26 "✗" at 0.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 13 rect from 0.5,1.5 to 1.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 27 "not learned" at 1,2 center front textcolor rgb "#111111" font ",10"
set object 14 rect from 1.5,1.5 to 2.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 28 "not learned" at 2,2 center front textcolor rgb "#111111" font ",10"
set object 15 rect from 2.5,1.5 to 3.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 29 "not learned" at 3,2 center front textcolor rgb "#111111" font ",10"
set label 30 "0.547\n[0.55, 0.55]" at 4,2 center front textcolor rgb "#111111" font ",10"
set label 31 "✗" at 4.45,1.88 right front textcolor rgb "#D55E00" font ",12"
set object 16 rect from 4.5,1.5 to 5.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 32 "not learned" at 5,2 center front textcolor rgb "#111111" font ",10"
set object 17 rect from 5.5,1.5 to 6.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 33 "not learned" at 6,2 center front textcolor rgb "#111111" font ",10"
set object 18 rect from 6.5,1.5 to 7.5,2.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 34 "not learned" at 7,2 center front textcolor rgb "#111111" font ",10"
set label 35 "0.505\n[0.49, 0.52]" at 0,3 center front textcolor rgb "#111111" font ",10"
set label 36 "✗" at 0.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 19 rect from 0.5,2.5 to 1.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 37 "not learned" at 1,3 center front textcolor rgb "#111111" font ",10"
set object 20 rect from 1.5,2.5 to 2.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 38 "not learned" at 2,3 center front textcolor rgb "#111111" font ",10"
set object 21 rect from 2.5,2.5 to 3.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 39 "not learned" at 3,3 center front textcolor rgb "#111111" font ",10"
set label 40 "0.496\n[0.49, 0.51]" at 4,3 center front textcolor rgb "#111111" font ",10"
set label 41 "✗" at 4.45,2.88 right front textcolor rgb "#D55E00" font ",12"
set object 22 rect from 4.5,2.5 to 5.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 42 "not learned" at 5,3 center front textcolor rgb "#111111" font ",10"
set object 23 rect from 5.5,2.5 to 6.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 43 "not learned" at 6,3 center front textcolor rgb "#111111" font ",10"
set object 24 rect from 6.5,2.5 to 7.5,3.5 fc rgb "#d9d9d9" fs solid 1.0 noborder front
set label 44 "not learned" at 7,3 center front textcolor rgb "#111111" font ",10"
plot "overview.dat" index 0 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette notitle
unset multiplot
set output
}
