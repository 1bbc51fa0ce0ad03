#!/usr/bin/env bash
# What a release would publish (docs/versioning.md), checked without publishing anything: the
# release profile's build of the whole project, as a maintainer runs it, staged by the publishing
# plugin but not uploaded (-DskipPublishing) nor signed (-Dgpg.skip). Then the staging repository
# must hold exactly the published modules, each jar with its sources and Javadoc jars, each POM with
# the metadata Maven Central asks for, and a BOM that manages exactly the published jars at the
# project's version. Extra arguments go to Maven.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GROUP_DIR=io/github/resiliencestarter
PUBLISHED_JARS="resilience-starter-core resilience-starter-autoconfigure resilience-starter-test resilience-spring-boot-starter"
PUBLISHED_POMS="resilience-starter-parent resilience-starter-bom"

rm -rf target/central-deferred target/central-staging
./mvnw -B -ntp -q -Prelease -DskipTests -Dgpg.skip=true -DskipPublishing=true -Dspring-boot.aot.skip=true deploy "$@"

VERSION="$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)"
# a snapshot is staged for the snapshot repository, a release for the bundle
STAGED=target/central-staging
[[ "$VERSION" == *-SNAPSHOT ]] && STAGED=target/central-deferred
failures=0
fail() { echo "release check: $*" >&2; failures=$((failures + 1)); }

found="$(cd "$STAGED/$GROUP_DIR" && ls -d -- */ | tr -d / | sort | tr '\n' ' ')"
expected="$(echo $PUBLISHED_JARS $PUBLISHED_POMS | tr ' ' '\n' | sort | tr '\n' ' ')"
[[ "$found" == "$expected" ]] || fail "staged modules are [$found], expected [$expected]"

pom_has() { grep -q "<$2>" "$1"; }
for module in $PUBLISHED_JARS $PUBLISHED_POMS; do
  dir="$STAGED/$GROUP_DIR/$module/$VERSION"
  pom="$dir/$module-$VERSION.pom"
  [[ -f "$pom" ]] || { fail "$module: no POM"; continue; }
  for element in name description; do
    pom_has "$pom" "$element" || fail "$module: the POM has no <$element>"
  done
  # the rest may come from the published parent, which must have it itself
  if ! grep -q "<artifactId>resilience-starter-parent</artifactId>" "$pom" || [[ "$module" == resilience-starter-parent ]]; then
    for element in url licenses developers scm; do
      pom_has "$pom" "$element" || fail "$module: the POM has no <$element> and no parent to take it from"
    done
  fi
done

for module in $PUBLISHED_JARS; do
  dir="$STAGED/$GROUP_DIR/$module/$VERSION"
  for classifier in "" -sources -javadoc; do
    [[ -f "$dir/$module-$VERSION$classifier.jar" ]] || fail "$module: no $module-$VERSION$classifier.jar"
  done
  # the engine's test jar goes along: its real-server support and the entry-point contract kit (docs/versioning.md)
  extra="$(cd "$dir" && ls -- *.jar | grep -v -x -e "$module-$VERSION.jar" -e "$module-$VERSION-sources.jar" \
    -e "$module-$VERSION-javadoc.jar" -e "resilience-starter-core-$VERSION-tests.jar" || true)"
  [[ -z "$extra" ]] || fail "$module: unexpected artifacts: $extra"
done

for module in resilience-starter-core resilience-starter-autoconfigure resilience-starter-test; do
  jar tf "$STAGED/$GROUP_DIR/$module/$VERSION/$module-$VERSION-javadoc.jar" | grep -q -x index.html \
    || fail "$module: its Javadoc jar has no index.html"
done
autoconfigure="$STAGED/$GROUP_DIR/resilience-starter-autoconfigure/$VERSION/resilience-starter-autoconfigure-$VERSION.jar"
for entry in META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports \
    META-INF/spring-autoconfigure-metadata.properties META-INF/spring-configuration-metadata.json \
    META-INF/spring/aot.factories; do
  jar tf "$autoconfigure" | grep -q -x "$entry" || fail "resilience-starter-autoconfigure: no $entry in its jar"
done

bom="$STAGED/$GROUP_DIR/resilience-starter-bom/$VERSION/resilience-starter-bom-$VERSION.pom"
managed_section="$(sed -n '/<dependencyManagement>/,/<\/dependencyManagement>/p' "$bom")"
managed="$(sed -n 's:.*<artifactId>\(.*\)</artifactId>.*:\1:p' <<<"$managed_section" | sort | tr '\n' ' ')"
[[ "$managed" == "$(echo $PUBLISHED_JARS | tr ' ' '\n' | sort | tr '\n' ' ')" ]] \
  || fail "the BOM manages [$managed], expected the published jars [$PUBLISHED_JARS]"
bom_versions="$( (sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$bom"; sed -n 's:.*<version>\(.*\)</version>.*:\1:p' <<<"$managed_section") | sort -u | tr '\n' ' ')"
[[ "$bom_versions" == "$VERSION " ]] || fail "the BOM's versions are [$bom_versions], not the project's $VERSION"
grep -q "<parent>" "$bom" && fail "the BOM has a parent: it would pass the parent's managed versions on"

if (( failures > 0 )); then
  echo "release check: $failures problem(s) in $STAGED" >&2
  exit 1
fi
echo "release check: $(echo $PUBLISHED_JARS $PUBLISHED_POMS | wc -w) modules staged as they would be published ($VERSION)"
