//! Maps made in the Tiled editor (.tmx), imported through the `tiled` crate.
//!
//! Each tile of the tileset says what it is with a custom string property
//! `terrain` (or, failing that, its class): `floor`, `wall`, `difficult`,
//! `pit`, `ledge`, `hazard` or `object`, with integer properties `depth`
//! (pits and ledges), `damage` and string `damage_type` (hazards), and string
//! `material` (glass, wood, stone, metal) and integer `size` (objects). Tile
//! layers are applied in order, so a later layer's tiles (objects, say)
//! replace an earlier one's; empty tiles leave what is below. Squares with no
//! tile in any layer are floor.

use std::path::Path;

use tiled::{Loader, PropertyValue, TileLayer};

use super::grid::{Map, MapError, Material, Pos, Tile, check_size};
use crate::stats::DamageType;

fn prop_str<'a>(tile: &'a tiled::Tile, key: &str) -> Option<&'a str> {
    match tile.properties.get(key) {
        Some(PropertyValue::StringValue(s)) => Some(s.as_str()),
        _ => None,
    }
}

fn prop_int(tile: &tiled::Tile, key: &str) -> Option<i32> {
    match tile.properties.get(key) {
        Some(PropertyValue::IntValue(v)) => Some(*v),
        Some(PropertyValue::FloatValue(v)) => Some(*v as i32),
        _ => None,
    }
}

/// What one Tiled tile stands for, its numbers checked as a legend's are.
fn tile_meaning(tile: &tiled::Tile, id: u32) -> Result<Tile, MapError> {
    let meaning = read_tile(tile, id)?;
    meaning
        .check()
        .map_err(|problem| MapError::Tiled(format!("tile {id}: {problem}")))?;
    Ok(meaning)
}

fn read_tile(tile: &tiled::Tile, id: u32) -> Result<Tile, MapError> {
    let terrain = prop_str(tile, "terrain")
        .map(str::to_string)
        .unwrap_or_else(|| tile.user_type.clone())
        .to_ascii_lowercase();
    let bad = |what: &str| MapError::Tiled(format!("tile {id}: {what}"));
    Ok(match terrain.as_str() {
        "floor" | "" => Tile::Floor,
        "wall" => Tile::Wall,
        "difficult" => Tile::Difficult,
        "pit" => Tile::Pit(prop_int(tile, "depth").unwrap_or(3).max(0) as u32),
        "ledge" => Tile::Ledge(prop_int(tile, "depth").unwrap_or(2).max(0) as u32),
        "hazard" => {
            let damage_type = match prop_str(tile, "damage_type") {
                None => DamageType::Fire,
                Some(w) => DamageType::from_word(&w.to_ascii_lowercase())
                    .ok_or_else(|| bad(&format!("unknown damage_type `{w}`")))?,
            };
            Tile::Hazard(prop_int(tile, "damage").unwrap_or(3), damage_type)
        }
        "object" => {
            let material = match prop_str(tile, "material")
                .map(str::to_ascii_lowercase)
                .as_deref()
            {
                Some("glass") => Material::Glass,
                Some("wood") | None => Material::Wood,
                Some("stone") => Material::Stone,
                Some("metal") => Material::Metal,
                Some(other) => return Err(bad(&format!("unknown material `{other}`"))),
            };
            Tile::Object(material, prop_int(tile, "size").unwrap_or(1).max(0) as u32)
        }
        other => {
            return Err(bad(&format!(
                "unknown terrain `{other}` (floor, wall, difficult, pit, ledge, hazard, object)"
            )));
        }
    })
}

/// The size a .tmx file's `<map>` declares, read from its text before
/// the Tiled loader makes its layers (a huge size declared in a small
/// file would otherwise be allocated whole).
fn declared_size(text: &str) -> Option<(usize, usize)> {
    let start = text.find("<map")?;
    let tag = &text[start..start + text[start..].find('>')?];
    let attr = |name: &str| -> Option<usize> {
        let key = format!(" {name}=\"");
        let at = tag.find(&key)? + key.len();
        tag[at..].split('"').next()?.trim().parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

/// Load a .tmx map.
pub fn load_tmx(path: &Path) -> Result<Map, MapError> {
    let text = crate::files::read_text(path)
        .map_err(|e| MapError::Tiled(format!("{}: {e}", path.display())))?;
    if let Some((width, height)) = declared_size(&text) {
        check_size(width, height)?;
    }
    let tmx = Loader::new()
        .load_tmx_map(path)
        .map_err(|e| MapError::Tiled(format!("{}: {e}", path.display())))?;
    check_size(tmx.width as usize, tmx.height as usize)?;
    let width = tmx.width as i32;
    let height = tmx.height as i32;
    let mut map = Map::new(width, height);
    let mut any_layer = false;
    for layer in tmx.layers() {
        let Some(TileLayer::Finite(tiles)) = layer.as_tile_layer() else {
            continue;
        };
        any_layer = true;
        for y in 0..height {
            for x in 0..width {
                let Some(lt) = tiles.get_tile(x, y) else {
                    continue;
                };
                let id = lt.id();
                let Some(tile) = lt.get_tile() else {
                    continue;
                };
                let meaning = tile_meaning(&tile, id).map_err(|e| {
                    MapError::Tiled(format!("{}: layer `{}`: {e}", path.display(), layer.name))
                })?;
                map.set(Pos::new(x, y), meaning.cell());
            }
        }
    }
    if !any_layer {
        return Err(MapError::Tiled(format!(
            "{}: no finite tile layer",
            path.display()
        )));
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::grid::Terrain;

    // Issue #3 point 1: maps made in the Tiled editor (.tmx) import too.
    #[test]
    fn imports_a_tmx_map() {
        let dir = crate::scratch::Scratch::new("tmx");
        let path = dir.join("t.tmx");
        std::fs::write(&path, TEST_TMX).unwrap();
        let m = load_tmx(&path).unwrap();
        assert_eq!((m.width, m.height), (4, 3));
        assert_eq!(m.to_ascii(), vec!["####", "#~_#", "#.w#"]);
        assert_eq!(m.cell(Pos::new(2, 1)).terrain, Terrain::Pit(4));
    }

    #[test]
    fn unknown_terrain_is_an_error() {
        let dir = crate::scratch::Scratch::new("tmx-bad");
        let path = dir.join("t.tmx");
        std::fs::write(&path, TEST_TMX.replace("\"difficult\"", "\"lava-ish\"")).unwrap();
        let e = load_tmx(&path).unwrap_err().to_string();
        assert!(e.contains("lava-ish"), "{e}");
        assert!(load_tmx(&dir.join("missing.tmx")).is_err());
    }

    const TEST_TMX: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="3" tilewidth="64" tileheight="64" infinite="0" nextlayerid="3" nextobjectid="1">
 <tileset firstgid="1" name="terrain" tilewidth="64" tileheight="64" tilecount="4" columns="4">
  <image source="terrain.png" width="256" height="64"/>
  <tile id="0"><properties><property name="terrain" value="floor"/></properties></tile>
  <tile id="1"><properties><property name="terrain" value="wall"/></properties></tile>
  <tile id="2"><properties><property name="terrain" value="difficult"/></properties></tile>
  <tile id="3" type="pit"><properties><property name="depth" type="int" value="4"/></properties></tile>
 </tileset>
 <tileset firstgid="5" name="objects" tilewidth="64" tileheight="64" tilecount="1" columns="1">
  <image source="objects.png" width="64" height="64"/>
  <tile id="0"><properties><property name="terrain" value="object"/><property name="material" value="wood"/></properties></tile>
 </tileset>
 <layer id="1" name="ground" width="4" height="3">
  <data encoding="csv">
2,2,2,2,
2,3,4,2,
2,1,1,2
</data>
 </layer>
 <layer id="2" name="objects" width="4" height="3">
  <data encoding="csv">
0,0,0,0,
0,0,0,0,
0,0,5,0
</data>
 </layer>
</map>
"#;
}
